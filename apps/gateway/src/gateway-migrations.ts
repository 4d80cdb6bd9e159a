import { join } from 'node:path';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PG_POOL, runMigrations, type MigrationSet } from '@tailsync/service-kit';
import { Pool } from 'pg';

/** The gateway's tables (`apps/gateway/migrations`): service accounts, console sessions. */
export const GATEWAY_MIGRATIONS: MigrationSet = {
  name: 'gateway',
  dir: join(__dirname, '..', 'migrations'),
  table: 'gateway_migrations',
};

/** Runs the gateway's pending migrations at start, before anything reads its tables. */
@Injectable()
export class GatewayMigrations implements OnModuleInit {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async onModuleInit(): Promise<void> {
    await runMigrations(this.pool, [GATEWAY_MIGRATIONS], { logger: new Logger('Migrations') });
  }
}
