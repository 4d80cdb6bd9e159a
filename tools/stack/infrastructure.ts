import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startKafka } from '../kafka/broker';
import { kafkaClientsPath, localKafkaClients, passwordsOf, principalSettings } from '../kafka/kafka-clients-file';
import type { BrokerSecurity } from '../kafka/kraft-config';
import { testCertificateAuthority } from '../kafka/test-ca';
import { KAFKA_CLIENTS_FILE_ENV } from './app-kafka-env';
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

/** How the embedded broker lets clients in (`EMBEDDED_KAFKA_SECURITY`, docs/kafka-security.md). */
export const EMBEDDED_KAFKA_SECURITY = ['sasl', 'sasl_ssl', 'plaintext'] as const;

/**
 * The embedded default: a real PostgreSQL (embedded-postgres) and a real single-node Kafka
 * (Maven Central artifacts), unless DATABASE_URL / KAFKA_BROKERS name external servers. The
 * broker runs with SASL/SCRAM and the contract's ACLs, its principals in
 * `<dataDir>/kafka-clients.json`; `env` connects as `admin` and names that file, so each app
 * started with it runs as its own principal (app-kafka-env.ts).
 */
export async function startInfrastructure(opts: InfrastructureOptions): Promise<Infrastructure> {
  mkdirSync(opts.dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const env: Record<string, string> = {};
  let kafkaVersion = 'external';
  let postgresVersion = 'external';
  const security = process.env.EMBEDDED_KAFKA_SECURITY ?? 'sasl';
  if (!(EMBEDDED_KAFKA_SECURITY as readonly string[]).includes(security)) {
    throw new Error(`EMBEDDED_KAFKA_SECURITY must be one of ${EMBEDDED_KAFKA_SECURITY.join(', ')}`);
  }
  const brokers = `127.0.0.1:${opts.kafkaPort}`;
  const clients = security === 'plaintext' ? undefined : localKafkaClients(opts.dataDir, brokers);
  // Over TLS the broker also takes PLAIN, as managed Kafka does, so that mechanism is tested too.
  const tls = clients && security === 'sasl_ssl' ? { ...testCertificateAuthority(join(opts.dataDir, 'kafka-tls')), plainUsers: passwordsOf(clients) } : undefined;
  const brokerSecurity: BrokerSecurity = clients ? { kind: 'sasl', adminPassword: clients.admin.password, tls } : { kind: 'plaintext' };
  try {
    const [pg, kafka] = await Promise.all([
      process.env.DATABASE_URL
        ? Promise.resolve(null)
        : startEmbeddedPostgres({ dataDir: join(opts.dataDir, 'postgres'), port: opts.postgresPort, database: opts.database }),
      process.env.KAFKA_BROKERS
        ? Promise.resolve(null)
        : startKafka({ dataDir: join(opts.dataDir, 'kafka'), port: opts.kafkaPort, security: brokerSecurity }),
    ]);
    if (pg) {
      stops.push(() => pg.stop());
      env.DATABASE_URL = pg.url;
      postgresVersion = pg.version;
      opts.log(`PostgreSQL ${pg.version} on 127.0.0.1:${opts.postgresPort} (data: ${join(opts.dataDir, 'postgres')})`);
    } else env.DATABASE_URL = process.env.DATABASE_URL as string;
    if (kafka) {
      stops.push(() => kafka.stop());
      kafkaVersion = kafka.version;
      Object.assign(env, { KAFKA_BROKERS: kafka.brokers }, tls ? { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: tls.caFile } : {});
      if (clients) {
        // The same code as `npm run cli -- kafka-principals`: users, ACLs and topics, at every start.
        // (Loaded here: it needs the @tailsync aliases, which the e2e global set-up lacks.)
        const { applyKafkaPrincipals } = await import('../kafka/kafka-principals');
        await applyKafkaPrincipals(kafka.admin, { principals: clients, replicationFactor: 1 });
        Object.assign(env, principalSettings(clients, 'admin'), { [KAFKA_CLIENTS_FILE_ENV]: kafkaClientsPath(opts.dataDir) });
      }
      const listener = `${clients ? 'SASL_' : ''}${tls ? 'SSL' : 'PLAINTEXT'}`;
      opts.log(`Apache Kafka ${kafka.version} (KRaft) on ${kafka.brokers}, ${listener}${clients ? ` with ACLs, principals in ${kafkaClientsPath(opts.dataDir)}` : ''} (data: ${join(opts.dataDir, 'kafka')})`);
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
