import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED, WEBHOOK_SUBSCRIPTIONS_TOPIC } from '@tailsync/contracts';
import { ensureTopics, kafkaConnection, newServiceKeys, type KafkaConnection, type KafkaSettings } from '@tailsync/service-kit';
import { secretId } from '@tailsync/webhooks';
import { loadConfig } from '@tailsync/service-kit';
import { Pool } from 'pg';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { migrateDispatcherTables } from '../store/migrate';
import { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import type { SubscriptionInput } from '../subscriptions/subscription.store';
import { AttemptRecords } from '../attempts/attempt-records.store';
import { BatchPools } from '../delivery-log/batch-pools';
import { DeliveryLog } from '../delivery-log/delivery-log.store';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { DeliveryLeases } from '../scheduling/delivery-leases.store';
import { SecretBox } from '../sealing/secret-box';

/** The real PostgreSQL and Kafka `npm test` started (never mocks), with its Kafka client settings. */
export function infraEnv(): KafkaSettings & { DATABASE_URL: string; KAFKA_BROKERS: string } {
  const { DATABASE_URL, KAFKA_BROKERS } = process.env;
  if (!DATABASE_URL || !KAFKA_BROKERS) throw new Error('DATABASE_URL and KAFKA_BROKERS are not set: run the suite with `npm test`');
  const kafkaSettings = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('KAFKA_') && e[1] !== undefined));
  return { ...kafkaSettings, DATABASE_URL, KAFKA_BROKERS };
}

/** The connection to the broker `npm test` started, as the principal its environment names. */
export const infraKafka = (): KafkaConnection => kafkaConnection(infraEnv());

export const testKey = randomBytes(32).toString('base64');

/** The services' half of a key pair made for the specs (they call the handlers directly, not over gRPC). */
const testVerifyKey = newServiceKeys().SERVICE_VERIFY_KEY;

export function testConfig(overrides: Record<string, string> = {}): WebhookDispatcherConfig {
  return loadConfig(WebhookDispatcherConfig, {
    ...infraEnv(),
    WEBHOOK_SECRET_KEY: testKey,
    SERVICE_VERIFY_KEY: testVerifyKey,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '100,200',
    WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    LOG_LEVEL: 'warn',
    ...overrides,
  });
}

/**
 * A pool whose tables live in a schema of their own, so the spec files (Jest runs them in
 * parallel) and the e2e stack never see each other's deliveries. `drop()` removes the schema.
 */
export async function isolatedDatabase(name: string): Promise<{ pool: Pool; schema: string; drop: () => Promise<void> }> {
  const schema = `wht_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 1 });
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const pool = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 20, options: `-c search_path="${schema}"` });
  pool.on('error', () => undefined);
  await migrateDispatcherTables(pool, { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) });
  return {
    pool,
    schema,
    drop: async () => {
      await pool.query(`drop schema "${schema}" cascade`).catch(() => undefined);
      await pool.end();
    },
  };
}

export function ensureSubscriptionEventsTopic(): Promise<void> {
  return ensureTopics(infraKafka(), [WEBHOOK_SUBSCRIPTIONS_TOPIC]);
}

/** A started publisher of subscription events on the real broker (its topic created when missing), its outbox in `pool`'s database. */
export async function startedEventsPublisher(pool: Pool): Promise<SubscriptionEventsPublisher> {
  await ensureSubscriptionEventsTopic();
  const publisher = new SubscriptionEventsPublisher(pool, { kafka: infraKafka(), clientId: `spec-subscription-events-${randomBytes(3).toString('hex')}` });
  await publisher.start();
  return publisher;
}

/** The stores of the delivery tables on one pool, as a runtime wires them (small batches on `plannedOnce`). */
export function deliveryStores(pool: Pool, plannedOnce: Pool = pool) {
  const pools = new BatchPools(pool, plannedOnce);
  return { newDeliveries: new NewDeliveries(pools), leases: new DeliveryLeases(pool), records: new AttemptRecords(pools), log: new DeliveryLog(pool) };
}

export const uniqueDomain = (prefix = 'd') => `${prefix}-${randomBytes(5).toString('hex')}`;

export const newSharedSecret = () => randomBytes(48).toString('hex');

/** What saving a subscription to the risk-assessment event with `secret` (sealed with {@link testKey}) stores. */
export const subscriptionInput = (url: string, secret: string, domain: string): SubscriptionInput => ({
  eventNames: [RISK_ASSESSMENT_EXECUTED],
  url,
  sealedSecret: new SecretBox(testKey).encrypt(secret, domain),
  secretId: secretId(secret),
});

export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
