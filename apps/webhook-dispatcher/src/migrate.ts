/**
 * Runs the webhook dispatcher's pending migrations and exits (the dispatcher runs them at start
 * too): `node tools/run.js apps/webhook-dispatcher/src/migrate.ts`, with DATABASE_URL as for it.
 */
import 'reflect-metadata';
import { CommonConfig, loadConfig, migrateCommand } from '@tailsync/service-kit';
import { DISPATCHER_MIGRATIONS } from './store/migrate';

void migrateCommand('webhook-dispatcher', () => ({ databaseUrl: loadConfig(CommonConfig).DATABASE_URL, sets: [DISPATCHER_MIGRATIONS] }));
