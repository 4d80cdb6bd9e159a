import type { ReaderLag } from '@tailsync/contracts';
import type { EventStore } from '@tailsync/event-store';
import type { TailActivity } from './tail-activity.port';

/** The readers of the event log an operator watches: the read model's projection and the relay to Kafka. */
export const READERS = ['tails', 'relay:tailsync.tail-events'];
/** Counting stops here: a lag this long is an alarm whatever its exact size. */
export const LAG_COUNT_CAP = 1000;

/** How far each reader of the event log is behind: events not read yet (capped) and the age of the oldest. */
export class ReaderLags {
  constructor(
    private readonly activity: TailActivity,
    private readonly events: EventStore,
  ) {}

  async all(): Promise<ReaderLag[]> {
    const checkpoints = await this.activity.checkpoints(READERS);
    return Promise.all(READERS.map((name) => this.lag(name, checkpoints.get(name) ?? null)));
  }

  private async lag(name: string, checkpoint: string | null): Promise<ReaderLag> {
    const { events } = await this.events.readAll(checkpoint === null ? null : { value: checkpoint }, LAG_COUNT_CAP);
    const oldest = events[0]?.recordedAt;
    return { name, events: events.length, capped: events.length >= LAG_COUNT_CAP, seconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0 };
  }
}
