import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { TailActivityReply } from '@tailsync/contracts';
import { TAIL_ACTIVITY, type TailActivity } from './tail-activity.port';
import { ReaderLags } from './reader-lags';

export class ReadActivity extends Query<TailActivityReply> {
  constructor(readonly since: Date) {
    super();
  }
}

@QueryHandler(ReadActivity)
export class ReadActivityHandler implements IQueryHandler<ReadActivity, TailActivityReply> {
  constructor(
    @Inject(TAIL_ACTIVITY) private readonly activity: TailActivity,
    private readonly readerLags: ReaderLags,
  ) {}

  async execute({ since }: ReadActivity): Promise<TailActivityReply> {
    const [tailsWritten, lags] = await Promise.all([this.activity.writtenPerMinute(since), this.readerLags.all()]);
    return { tailsWritten, lags };
  }
}
