import type { Position } from '@eventstore/db-client';
import { parsePair } from '../checkpoint';

/** A position in `$all` as the port's checkpoint value: `"<commit>:<prepare>"`. */
export function positionValue(p: Position): string {
  return `${p.commit}:${p.prepare}`;
}

export function toPosition(value: string): Position {
  const [commit, prepare] = parsePair(value);
  return { commit, prepare };
}

const MAX_REAL_POSITION = 2n ** 62n;

/** Servers before 22.10 report no position of a write (or a placeholder one). */
export function isRealPosition(p: Position | undefined): p is Position {
  return !!p && p.commit >= 0n && p.prepare >= 0n && p.commit < MAX_REAL_POSITION && p.prepare < MAX_REAL_POSITION;
}
