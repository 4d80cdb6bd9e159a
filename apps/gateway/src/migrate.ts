/**
 * Runs the gateway's pending migrations and exits (the gateway runs them at start too):
 * `node tools/run.js apps/gateway/src/migrate.ts`, with DATABASE_URL as for the gateway.
 */
import 'reflect-metadata';
import { CommonConfig, loadConfig, migrateCommand } from '@tailsync/service-kit';
import { GATEWAY_MIGRATIONS } from './gateway-migrations';

void migrateCommand('gateway', () => ({ databaseUrl: loadConfig(CommonConfig).DATABASE_URL, sets: [GATEWAY_MIGRATIONS] }));
