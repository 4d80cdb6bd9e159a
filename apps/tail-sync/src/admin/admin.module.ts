import { DynamicModule, Module } from '@nestjs/common';
import type { EventStore } from '@tailsync/event-store';
import type { Pool } from 'pg';
import { CountTailsHandler } from './application/count-tails.query';
import { TAIL_COUNTS } from './application/tail-counts.port';
import { ReadActivityHandler } from './application/read-activity.query';
import { ReaderLags } from './application/reader-lags';
import { exportReaderLags } from './infrastructure/reader-lag.metrics';
import { TAIL_ACTIVITY } from './application/tail-activity.port';
import { PostgresTailActivity } from './infrastructure/postgres-tail-activity';
import { PostgresTailCounts } from './infrastructure/postgres-tail-counts';
import { AdminRequests } from './interface/admin-requests';

/** What operators ask of tail-sync across domains (the console's Domains and Overview pages). */
@Module({})
export class AdminModule {
  static forRoot(pool: Pool, eventStore: EventStore): DynamicModule {
    const activity = new PostgresTailActivity(pool);
    const readerLags = new ReaderLags(activity, eventStore);
    exportReaderLags(readerLags);
    return {
      module: AdminModule,
      exports: [AdminRequests],
      providers: [
        AdminRequests,
        CountTailsHandler,
        ReadActivityHandler,
        { provide: TAIL_COUNTS, useValue: new PostgresTailCounts(pool) },
        { provide: TAIL_ACTIVITY, useValue: activity },
        { provide: ReaderLags, useValue: readerLags },
      ],
    };
  }
}
