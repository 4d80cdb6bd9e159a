/**
 * The broker as an attacker sees it: `npm test` runs Kafka with SASL/SCRAM on every listener and
 * the contract's ACLs (allow.everyone.if.no.acl.found=false). Each principal can do its part only.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC, RISK_ASSESSMENT_EXECUTED_TOPIC, TOPICS } from '@tailsync/contracts';
import { kafkaAccessFailure, kafkaConnection, type KafkaConnection } from '@tailsync/service-kit';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, Kafka, logLevel, ResourcePatternTypes } from 'kafkajs';
import { principalEnv, principalKafka, produceHarmless as produce, testKafkaClients, withAdmin } from './support/kafka';
import { api, newServiceAccount } from './support/accounts';
import { appEnv } from './support/test-stack';

const ROOT = join(__dirname, '..', '..');
const client = (connection: KafkaConnection) => new Kafka({ ...connection, clientId: `attacker-${randomUUID().slice(0, 8)}`, logLevel: logLevel.NOTHING, retry: { retries: 2 }, connectionTimeout: 10_000 });

/** What a failure of `run` says, as the apps would report it; fails the test when `run` succeeds. */
async function refusal(connection: KafkaConnection, run: (kafka: Kafka) => Promise<unknown>): Promise<string> {
  try {
    await run(client(connection));
  } catch (error) {
    return kafkaAccessFailure(error, connection)?.message ?? `not an access failure: ${(error as Error).message}`;
  }
  throw new Error('the broker allowed it');
}

/** Runs an app with the test stack's settings and `settings` until it exits (these tests expect it to stop). */
const runToEnd = (app: 'tail-sync' | 'webhook-dispatcher', settings: Record<string, string>) =>
  spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'apps', app, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...appEnv(), ...settings },
    encoding: 'utf8',
    timeout: 90_000,
  });

/** Joins `groupId` on `topic` and resolves with the first message, or rejects with the group's error. */
const consumeOne = (topic: string, groupId: string) => async (kafka: Kafka) => {
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, retry: { retries: 0 } });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    return await new Promise((resolve, reject) => {
      consumer.on(consumer.events.CRASH, (e) => reject(e.payload.error));
      void consumer.run({ eachMessage: async ({ message }) => resolve(message) }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
};

describe('Kafka as an attacker sees it (SASL/SCRAM, least-privilege ACLs)', () => {
  const clients = testKafkaClients();

  it('refuses a client without credentials', async () => {
    const anonymous = kafkaConnection({ KAFKA_BROKERS: clients.brokers, KAFKA_SSL: process.env.KAFKA_SSL, KAFKA_SSL_CA_FILE: process.env.KAFKA_SSL_CA_FILE });
    const admin = client(anonymous).admin();
    await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
    await admin.disconnect();
  });

  it('refuses a wrong password, saying which settings to check and never the password', async () => {
    const wrong = { ...principalKafka('reader'), sasl: { ...principalKafka('reader').sasl!, password: 'not-the-password-at-all' } };
    const message = await refusal(wrong, (kafka) => kafka.admin().connect());
    expect(message).toContain('refused the credentials');
    expect(message).toContain('KAFKA_SASL_PASSWORD');
    expect(message).not.toContain('not-the-password-at-all');
  });

  it('lets reader read tailsync.* in a reader-* group, and nothing else', async () => {
    const account = await newServiceAccount();
    expect((await api(account, 'PUT', '/Tails', { tailId: 'read-me', tailNumber: 'NREAD1' })).status).toBe(201);
    await expect(consumeOne(TOPICS.tailEvents, `reader-e2e-${randomUUID()}`)(client(principalKafka('reader')))).resolves.toBeDefined();
    expect(await refusal(principalKafka('reader'), produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
    expect(await refusal(principalKafka('reader'), produce(TOPICS.tailEvents))).toContain('TOPIC_AUTHORIZATION_FAILED');
    // The broker's own answer (kafkajs patch group-authorization), not "Failed to find group coordinator".
    expect(await refusal(principalKafka('reader'), consumeOne(TOPICS.tailEvents, 'webhook-dispatcher-events'))).toContain('GROUP_AUTHORIZATION_FAILED');
    expect(await refusal(principalKafka('reader'), consumeOne(RISK_ASSESSMENT_EXECUTED_TOPIC.topic, `reader-e2e-${randomUUID()}`))).toContain('TOPIC_AUTHORIZATION_FAILED');
    await expect(withAdmin(client(principalKafka('reader')), (a) => a.fetchOffsets({ groupId: `reader-e2e-${randomUUID()}`, topics: [TOPICS.tailEvents] }))).resolves.toBeDefined();
    expect(await refusal(principalKafka('reader'), (kafka) => withAdmin(kafka, (a) => a.fetchOffsets({ groupId: 'webhook-dispatcher-events', topics: [TOPICS.tailEvents] })))).toContain(
      'GROUP_AUTHORIZATION_FAILED',
    );
    await expect(withAdmin(client(principalKafka('reader')), (a) => a.createTopics({ topics: [{ topic: `tailsync.planted-${randomUUID()}`, numPartitions: 1, replicationFactor: 1 }] }))).rejects.toThrow();
  });

  // PLAIN, the mechanism managed Kafka offerings use, sends the password itself: the local broker
  // takes it over TLS only (EMBEDDED_KAFKA_SECURITY=sasl_ssl, a line of .ci/run).
  const plain = (password = principalKafka('reader').sasl!.password): KafkaConnection => ({
    ...principalKafka('reader'),
    sasl: { mechanism: 'plain', username: clients.reader.username, password },
  });
  if (process.env.KAFKA_SSL === 'true') {
    it('takes SASL/PLAIN over TLS as the same principal, with its ACLs, and refuses a wrong PLAIN password', async () => {
      await expect(consumeOne(TOPICS.tailEvents, `reader-e2e-${randomUUID()}`)(client(plain()))).resolves.toBeDefined();
      expect(await refusal(plain(), produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
      const message = await refusal(plain('not-the-plain-password'), (kafka) => kafka.admin().connect());
      expect(message).toContain('refused the credentials');
      expect(message).not.toContain('not-the-plain-password');
    });
  } else {
    it('refuses SASL/PLAIN on a listener without TLS, where it would send the password in clear', async () => {
      expect(await refusal(plain(), (kafka) => kafka.admin().connect())).toContain('refused the credentials (The broker does not support the requested SASL mechanism)');
    });
  }

  it('lets product write risk assessments and read nothing of tailsync', async () => {
    await produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic)(client(principalKafka('product')));
    expect(await refusal(principalKafka('product'), consumeOne(TOPICS.tailEvents, `reader-e2e-${randomUUID()}`))).toMatch(/(TOPIC|GROUP)_AUTHORIZATION_FAILED/);
    expect(await refusal(principalKafka('product'), consumeOne(TOPICS.tailEvents, `product-${randomUUID()}`))).toMatch(/(TOPIC|GROUP)_AUTHORIZATION_FAILED/);
    expect(await refusal(principalKafka('product'), produce(RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
  });

  it('keeps each service to its own topics', async () => {
    expect(await refusal(principalKafka('tail-sync'), produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
    expect(await refusal(principalKafka('webhook-dispatcher'), produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
    expect(await refusal(principalKafka('webhook-dispatcher'), produce(TOPICS.tailEvents))).toContain('TOPIC_AUTHORIZATION_FAILED');
  });

  it('stops an app started with a wrong password at once, naming the setting, never the password', () => {
    const run = runToEnd('tail-sync', { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'tail-sync', KAFKA_SASL_PASSWORD: 'wrong-password-1234', TAIL_SYNC_HTTP_PORT: '13091', INSTANCE_ID: 'wrong-password' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('tail-sync failed to start: Kafka at');
    expect(run.stderr).toContain('refused the credentials');
    expect(run.stderr).toContain('KAFKA_SASL_PASSWORD');
    expect(`${run.stdout}${run.stderr}`).not.toContain('wrong-password-1234');
  });

  it('stops a dispatcher whose principal may not use its consumer group, naming the refusal', () => {
    const run = runToEnd('webhook-dispatcher', {
      ...principalEnv('webhook-dispatcher'), WEBHOOK_EVENTS_GROUP_ID: 'not-granted-to-the-dispatcher', WEBHOOK_DISPATCHER_HTTP_PORT: '13092', WEBHOOK_DISPATCHER_GRPC_PORT: '13093', INSTANCE_ID: 'no-group-acl',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('webhook-dispatcher stopped: its Kafka consumer (group not-granted-to-the-dispatcher) cannot go on');
    expect(run.stderr).toContain('denied principal');
    expect(run.stderr).toContain('GROUP_AUTHORIZATION_FAILED');
    expect(`${run.stdout}${run.stderr}`).not.toContain(clients['webhook-dispatcher'].password);
  });

  it('kafka-principals brings a principal back to the contract: an ACL added by hand is removed', async () => {
    const admin = client(principalKafka('admin')).admin();
    await admin.connect();
    const planted = {
      resourceType: AclResourceTypes.TOPIC, resourceName: RISK_ASSESSMENT_EXECUTED_TOPIC.topic, resourcePatternType: ResourcePatternTypes.LITERAL,
      principal: `User:${clients.reader.username}`, host: '*', operation: AclOperationTypes.WRITE, permissionType: AclPermissionTypes.ALLOW,
    };
    try {
      await admin.createAcls({ acl: [planted] });
      await produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic)(client(principalKafka('reader')));
      const run = spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), 'kafka-principals', '--clients', join(process.env.TAILSYNC_TEST_DATA as string, 'kafka-clients.json')], {
        cwd: ROOT,
        env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAFKA_SASL_'))),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('1 removed');
      for (const c of Object.values(clients)) if (typeof c === 'object') expect(run.stdout).not.toContain(c.password);
      expect(await refusal(principalKafka('reader'), produce(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
    } finally {
      await admin.deleteAcls({ filters: [planted] });
      await admin.disconnect();
    }
  });

  it('kafka-principals --reader NAME makes a principal that reads only the topics named, in groups NAME-* only', async () => {
    const account = await newServiceAccount();
    expect((await api(account, 'PUT', '/Tails', { tailId: 'named-reader', tailNumber: 'NREAD2' })).status).toBe(201);
    const name = `audit-${randomUUID().slice(0, 8)}`;
    const password = randomBytes(24).toString('hex');
    const dir = mkdtempSync(join(tmpdir(), 'named-reader-'));
    writeFileSync(join(dir, 'password'), `${password}\n`, { mode: 0o600 });
    const run = spawnSync(process.execPath, [
      join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), 'kafka-principals', '--reader', name, '--topic', TOPICS.tailEvents,
      '--password-file', join(dir, 'password'), '--clients', join(process.env.TAILSYNC_TEST_DATA as string, 'kafka-clients.json'),
    ], { cwd: ROOT, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAFKA_SASL_'))), encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain(password);
    const own: KafkaConnection = { ...principalKafka('reader'), sasl: { ...principalKafka('reader').sasl!, username: name, password } as KafkaConnection['sasl'] };

    await expect(consumeOne(TOPICS.tailEvents, `${name}-e2e`)(client(own))).resolves.toBeDefined();
    // Another principal's group: neither joined nor its offsets read.
    expect(await refusal(own, consumeOne(TOPICS.tailEvents, `reader-e2e-${randomUUID()}`))).toContain('GROUP_AUTHORIZATION_FAILED');
    expect(await refusal(own, (kafka) => withAdmin(kafka, (a) => a.fetchOffsets({ groupId: 'webhook-dispatcher-events', topics: [TOPICS.tailEvents] })))).toContain('GROUP_AUTHORIZATION_FAILED');
    // A topic it was not given, even one the shared reader reads.
    expect(await refusal(own, consumeOne(TOPICS.webhookSubscriptions, `${name}-e2e-other`))).toContain('TOPIC_AUTHORIZATION_FAILED');
    expect(await refusal(own, produce(TOPICS.tailEvents))).toContain('TOPIC_AUTHORIZATION_FAILED');
    // The shared reader stays as it was.
    await expect(consumeOne(TOPICS.tailEvents, `reader-e2e-${randomUUID()}`)(client(principalKafka('reader')))).resolves.toBeDefined();
  });
});
