/**
 * The whole tail-sync process module against a real PostgreSQL (`DATABASE_URL`; a database of its
 * own) and Kafka (`KAFKA_BROKERS`): Nest builds every piece, the start migrates before the
 * background readers run, and the stop ends them before the pool they use is closed.
 */
import { NestFactory } from '@nestjs/core';
import { generateKeyPairSync } from 'node:crypto';
import { loadConfig, PG_POOL } from '@tailsync/service-kit';
import { Client, type Pool } from 'pg';
import { appModule } from './app.module';
import { TailSyncConfig } from './config/tail-sync.config';
import { TailsProjection } from './tails/infrastructure/read-model/tails.projection';
import { TailEventsRelay } from './tails/infrastructure/relay/tail-events.relay';

const DATABASE_URL = process.env.DATABASE_URL;
const KAFKA_BROKERS = process.env.KAFKA_BROKERS;
const describeInfra = DATABASE_URL && KAFKA_BROKERS ? describe : describe.skip;
if (!DATABASE_URL || !KAFKA_BROKERS) console.warn('app.module.spec: DATABASE_URL or KAFKA_BROKERS not set; skipped');

describeInfra("tail-sync's process module (PostgreSQL + Kafka)", () => {
  const database = `ts_wiring_${process.pid}`;
  const admin = () => new Client({ connectionString: DATABASE_URL });
  const inDatabase = (name: string) => Object.assign(new URL(DATABASE_URL as string), { pathname: `/${name}` }).toString();

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database "${database}"`);
    await client.end();
  });

  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists "${database}" with (force)`);
    await client.end();
  });

  it('starts migrated, and stops the projection and the relay before it closes the pool', async () => {
    const verifyKey = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const config = loadConfig(TailSyncConfig, { ...process.env, DATABASE_URL: inDatabase(database), SERVICE_VERIFY_KEY: verifyKey, EVENT_STORE: 'postgres', LOG_LEVEL: 'silent' });
    const app = await NestFactory.createApplicationContext(appModule(config, 'wiring-spec'), { logger: false });
    const pool = app.get<Pool>(PG_POOL);
    const { rows } = await pool.query<{ name: string }>('select name from tail_sync_migrations order by id');
    expect(rows.length).toBeGreaterThan(0);

    const stops = [jest.spyOn(app.get(TailEventsRelay), 'stop'), jest.spyOn(app.get(TailsProjection), 'stop')];
    const end = jest.spyOn(pool, 'end');
    await app.close();

    expect(end).toHaveBeenCalledTimes(1);
    for (const stop of stops) {
      expect(stop).toHaveBeenCalledTimes(1);
      expect(stop.mock.invocationCallOrder[0]).toBeLessThan(end.mock.invocationCallOrder[0]);
    }
    expect(pool.ended).toBe(true);
  });
});
