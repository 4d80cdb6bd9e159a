import type { StoredEvent } from '@tailsync/event-store';
import { tailIdOfStream } from '../../domain/stream-ids';
import { evolve } from '../../domain/tail.decider';
import { isTailEventType, toTailEvent } from '../../domain/tail.events';
import type { TailState } from '../../domain/tail.state';

/** A row of `<prefix>tail_mappings`. */
export interface MappingRow {
  domain: string;
  source: string;
  mappedId: string;
  tailId: number;
  addedVersion: number;
}

/** What the fold reads of an event: stored, or about to be (an append writing its rows). */
export type FoldedEvent = Pick<StoredEvent, 'streamId' | 'version' | 'type' | 'data'>;

/** What a batch of events makes of the read model's rows (pure: no I/O). */
export interface TailRows {
  /** The tails the batch changed, as they are after it (version = the stream's). */
  changed: TailState[];
  /** Mappings the batch added, in order. */
  mappings: MappingRow[];
  /** Events folded per tail; they count as applied once the row guard lets the tail's row through. */
  folded: Map<number, number>;
}

/** The batch's events of `tail-<id>` streams, per tail, in the order read (other streams are left out). */
export function eventsByTail<E extends FoldedEvent>(events: E[]): Map<number, E[]> {
  const byTail = new Map<number, E[]>();
  for (const e of events) {
    const tailId = tailIdOfStream(e.streamId);
    if (tailId === null) continue;
    const list = byTail.get(tailId);
    if (list) list.push(e);
    else byTail.set(tailId, [e]);
  }
  return byTail;
}

/**
 * Folds each tail's events onto its current row with the domain's `evolve`, skipping events the
 * row already has (replays) and, with a warning, events it cannot apply. Sorts each tail's events
 * by version in place.
 */
export function foldTailRows(byTail: Map<number, FoldedEvent[]>, current: Map<number, TailState>, warn: (message: string) => void): TailRows {
  const changed: TailState[] = [];
  const mappings: MappingRow[] = [];
  const folded = new Map<number, number>();
  for (const [tailId, evs] of byTail) {
    evs.sort((x, y) => x.version - y.version);
    let state: TailState | null = current.get(tailId) ?? null;
    let dirty = false;
    for (const e of evs) {
      if (state && e.version <= state.version) continue; // already applied
      if (!isTailEventType(e.type)) {
        warn(`unknown event type '${e.type}' in ${e.streamId}@${e.version}; skipped`);
        if (state) state = { ...state, version: e.version };
        continue;
      }
      const event = toTailEvent(e);
      if (!state && event.type !== 'TailCreated') {
        warn(`${e.type} for tail ${tailId} without its creation; skipped`);
        continue;
      }
      if (state && e.version !== state.version + 1) warn(`tail ${tailId} jumps from version ${state.version} to ${e.version}`);
      // The domain's own fold; the row keeps the stream's version (the guard against replays).
      state = { ...evolve(state, event), version: e.version };
      if (event.type === 'TailCreated' || event.type === 'MappingAdded') {
        mappings.push({ domain: state.domain, source: event.data.source, mappedId: event.data.mappedId, tailId, addedVersion: e.version });
      }
      dirty = true;
      folded.set(tailId, (folded.get(tailId) ?? 0) + 1);
    }
    if (state && dirty) changed.push(state);
  }
  return { changed, mappings, folded };
}
