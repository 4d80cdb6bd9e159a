import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicationSettings } from '@tailsync/service-kit/topic-replication';
import { localKafkaSettings, startLocalKafka } from './local-kafka';
// A relative path: Jest's globalSetup (the e2e stack) does not apply the path aliases.
// The keys alone: the whole service-kit takes 1.6 s to load, which `npm start` would wait for.
import { newServiceKeys, type ServiceKeys } from '@tailsync/service-kit/service-keys';
import { startEmbeddedPostgres } from '../postgres/embedded-postgres';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface InfrastructureOptions {
  /** Everything this run keeps lives here (under `.data/`). */
  dataDir: string;
  kafkaPort: number;
  postgresPort: number;
  database: string;
  log: (line: string) => void;
}

export interface Infrastructure {
  env: Record<string, string>;
  kafkaVersion: string;
  postgresVersion: string;
  stop(): Promise<void>;
}

/**
 * The embedded default: a real PostgreSQL (embedded-postgres) and a real Kafka, one broker or
 * KAFKA_LOCAL_BROKERS=3 (local-kafka.ts), unless DATABASE_URL / KAFKA_BROKERS name external
 * servers. The brokers run with SASL/SCRAM and the contract's ACLs, their principals in
 * `<dataDir>/kafka-clients.json`; `env` connects as `admin` and names that file, so each app
 * started with it runs as its own principal (app-kafka-env.ts).
 */
export async function startInfrastructure(opts: InfrastructureOptions): Promise<Infrastructure> {
  mkdirSync(opts.dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const env: Record<string, string> = {};
  let kafkaVersion = 'external';
  let postgresVersion = 'external';
  const kafkaSettings = { ...localKafkaSettings(process.env), replication: replicationSettings(process.env) };
  try {
    const [pg, kafka] = await Promise.all([
      process.env.DATABASE_URL
        ? Promise.resolve(null)
        : startEmbeddedPostgres({ dataDir: join(opts.dataDir, 'postgres'), port: opts.postgresPort, database: opts.database }),
      process.env.KAFKA_BROKERS
        ? Promise.resolve(null)
        : startLocalKafka({ dataDir: opts.dataDir, port: opts.kafkaPort, ...kafkaSettings, log: opts.log }),
    ]);
    if (pg) {
      stops.push(() => pg.stop());
      env.DATABASE_URL = pg.url;
      postgresVersion = pg.version;
      opts.log(`PostgreSQL ${pg.version} on 127.0.0.1:${opts.postgresPort} (data: ${join(opts.dataDir, 'postgres')})`);
    } else env.DATABASE_URL = process.env.DATABASE_URL as string;
    if (kafka) {
      stops.push(() => kafka.running.stop());
      kafkaVersion = kafka.running.version;
      Object.assign(env, kafka.env);
    } else {
      // An external broker: its settings as given (KAFKA_SSL*, KAFKA_SASL_*), for every process.
      for (const [name, value] of Object.entries(process.env)) if (name.startsWith('KAFKA_') && value !== undefined) env[name] = value;
    }
  } catch (error) {
    await Promise.allSettled(stops.map((s) => s()));
    throw error;
  }
  return {
    env,
    kafkaVersion,
    postgresVersion,
    stop: async () => {
      await Promise.allSettled(stops.reverse().map((s) => s()));
    },
  };
}

export interface LocalSecrets extends ServiceKeys {
  ADMIN_TOKEN: string;
  JWT_SECRET: string;
  WEBHOOK_SECRET_KEY: string;
}

/**
 * Secrets the local stack needs: taken from the environment when set, otherwise generated once
 * and kept (mode 0600) under the data directory so restarts keep tokens and encrypted data valid.
 */
export function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const kept: Partial<LocalSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: LocalSecrets = {
    ADMIN_TOKEN: process.env.ADMIN_TOKEN || kept.ADMIN_TOKEN || randomBytes(24).toString('base64url'),
    JWT_SECRET: process.env.JWT_SECRET || kept.JWT_SECRET || randomBytes(48).toString('base64url'),
    WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY || kept.WEBHOOK_SECRET_KEY || randomBytes(32).toString('base64'),
    ...serviceKeys(kept),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** The pair from the environment when both halves are set, else the kept one, else a new one. */
function serviceKeys(kept: Partial<LocalSecrets>): ServiceKeys {
  if (process.env.SERVICE_SIGNING_KEY && process.env.SERVICE_VERIFY_KEY) {
    return { SERVICE_SIGNING_KEY: process.env.SERVICE_SIGNING_KEY, SERVICE_VERIFY_KEY: process.env.SERVICE_VERIFY_KEY };
  }
  if (kept.SERVICE_SIGNING_KEY && kept.SERVICE_VERIFY_KEY) return { SERVICE_SIGNING_KEY: kept.SERVICE_SIGNING_KEY, SERVICE_VERIFY_KEY: kept.SERVICE_VERIFY_KEY };
  return newServiceKeys();
}
