import { DynamicModule, Module } from '@nestjs/common';
import type { Pool } from 'pg';
import { CountTailsHandler } from './application/count-tails.query';
import { TAIL_COUNTS } from './application/tail-counts.port';
import { PostgresTailCounts } from './infrastructure/postgres-tail-counts';
import { AdminMessages } from './interface/admin.messages';

/** What operators ask of tail-sync across domains (the console's Domains page). */
@Module({})
export class AdminModule {
  static forRoot(pool: Pool): DynamicModule {
    return {
      module: AdminModule,
      controllers: [AdminMessages],
      providers: [CountTailsHandler, { provide: TAIL_COUNTS, useValue: new PostgresTailCounts(pool) }],
    };
  }
}
