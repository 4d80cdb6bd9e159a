import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { ReaderLag, TailActivityReply } from '@tailsync/contracts';
import type { EventStore } from '@tailsync/event-store';
import { TAIL_ACTIVITY, type TailActivity } from './tail-activity.port';
import { ADMIN_EVENT_STORE } from './admin-event-store.port';

/** The readers of the event log an operator watches: the read model's projection and the relay to Kafka. */
export const READERS = ['tails', 'relay:tailsync.tail-events'];
/** Counting stops here: a lag this long is an alarm whatever its exact size. */
export const LAG_COUNT_CAP = 1000;

export class ReadActivity extends Query<TailActivityReply> {
  constructor(readonly since: Date) {
    super();
  }
}

@QueryHandler(ReadActivity)
export class ReadActivityHandler implements IQueryHandler<ReadActivity, TailActivityReply> {
  constructor(
    @Inject(TAIL_ACTIVITY) private readonly activity: TailActivity,
    @Inject(ADMIN_EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ since }: ReadActivity): Promise<TailActivityReply> {
    const [tailsWritten, checkpoints] = await Promise.all([this.activity.writtenPerMinute(since), this.activity.checkpoints(READERS)]);
    const lags = await Promise.all(READERS.map((name) => this.lag(name, checkpoints.get(name) ?? null)));
    return { tailsWritten, lags };
  }

  private async lag(name: string, checkpoint: string | null): Promise<ReaderLag> {
    const { events } = await this.events.readAll(checkpoint === null ? null : { value: checkpoint }, LAG_COUNT_CAP);
    const oldest = events[0]?.recordedAt;
    return { name, events: events.length, capped: events.length >= LAG_COUNT_CAP, seconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0 };
  }
}
