import { Module } from '@nestjs/common';
import type { EventStore } from '@tailsync/event-store';
import { PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { EVENT_STORE } from '../tails/application/tail-ports';
import { CountTailsHandler } from './application/count-tails.query';
import { TAIL_COUNTS } from './application/tail-counts.port';
import { ReadActivityHandler } from './application/read-activity.query';
import { ReaderLags } from './application/reader-lags';
import { TAIL_ACTIVITY, type TailActivity } from './application/tail-activity.port';
import { PostgresTailActivity } from './infrastructure/postgres-tail-activity';
import { PostgresTailCounts } from './infrastructure/postgres-tail-counts';
import { ReaderLagMetrics } from './infrastructure/reader-lag.metrics';
import { AdminRequests } from './interface/admin-requests';

/** What operators ask of tail-sync across domains (the console's Domains and Overview pages). */
@Module({
  providers: [
    AdminRequests,
    CountTailsHandler,
    ReadActivityHandler,
    { provide: TAIL_COUNTS, useFactory: (pool: Pool) => new PostgresTailCounts(pool), inject: [PG_POOL] },
    { provide: TAIL_ACTIVITY, useFactory: (pool: Pool) => new PostgresTailActivity(pool), inject: [PG_POOL] },
    { provide: ReaderLags, useFactory: (activity: TailActivity, events: EventStore) => new ReaderLags(activity, events), inject: [TAIL_ACTIVITY, EVENT_STORE] },
    ReaderLagMetrics,
  ],
  exports: [AdminRequests],
})
export class AdminModule {}
