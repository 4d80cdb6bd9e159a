import type { MinuteCount } from '@tailsync/contracts';

/** Token of the adapter that reads the read model for the operators' overview. */
export const TAIL_ACTIVITY = Symbol('TAIL_ACTIVITY');

export interface TailActivity {
  /** Tails per domain and minute of their latest change, from `since` on. */
  writtenPerMinute(since: Date): Promise<MinuteCount[]>;
  /** The stored checkpoint of each reader of the event log (null: it has read nothing). */
  checkpoints(names: string[]): Promise<Map<string, string | null>>;
}
