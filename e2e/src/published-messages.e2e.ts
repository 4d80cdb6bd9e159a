import {
  CLOUDEVENTS_HEADERS as CE,
  KAFKA_TOPICS,
  RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC,
  RISK_ASSESSMENT_EXECUTED_TOPIC,
  TAIL_EVENT_TYPES_PUBLISHED,
  TAIL_EVENTS_TOPIC,
  tailEventCloudEventType,
  TOPICS,
  WEBHOOK_SUBSCRIPTIONS_TOPIC,
  webhookSubscriptionCloudEventType,
} from '@tailsync/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { api, newServiceAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { kafka, readToEnd, schemaViolations, type RawMessage } from './support/kafka';

/**
 * Runs after every other e2e file (support/sequencer.js), so it reads back every message tailsync
 * produced in the run. Each test first produces what it needs itself, so it also checks something
 * when run alone.
 */

describe('every message tailsync produced in the run, read back from the broker, meets its published schema', () => {
  it(`${TOPICS.tailEvents}: every message's key, CloudEvents headers and value`, async () => {
    const a = await newServiceAccount();
    const b = await newServiceAccount(a.domain, 'second source');
    const created = await api(a, 'PUT', '/Tails', { tailId: 'rb-1', tailNumber: 'NRB1', registrationNumber: 'D-ABCD' });
    const tailId = created.body.tailId as number;
    // Each write answered, so a wait for its events below is a wait for the relay, not for a refused write.
    const statuses = [
      created.status,
      (await api(b, 'PUT', '/Tails', { tailId: 'b-rb-1', tailNumber: 'NRB1' })).status,
      (await api(a, 'POST', '/Tails/Deactivate', { tailId: 'rb-1' })).status,
      (await api(a, 'POST', '/Tails/Reactivate', { tailId: 'rb-1' })).status,
      (await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 'rb-1', newTailNumber: 'NRB1-B' })).status,
    ];
    expect(statuses).toEqual([201, 200, 200, 200, 200]);
    const mine = (ms: RawMessage[]) => ms.filter((m) => m.key === `${a.domain}:${tailId}`);
    const messages = await eventually(async () => {
      const all = await readToEnd(TAIL_EVENTS_TOPIC.topic);
      return mine(all).length >= 5 ? all : undefined;
    }, 30_000);

    const problems = messages.flatMap((m) => {
      const value = JSON.parse(m.value!.toString('utf8')) as { eventId: string; type: string; domain: string; tailId: number; occurredAt: string };
      const found = schemaViolations(TAIL_EVENTS_TOPIC, m);
      // What the schemas cannot say: the headers and the key agree with the value.
      if (m.headers[CE.id] !== value.eventId || m.headers[CE.type] !== tailEventCloudEventType(value.type) || m.headers[CE.time] !== value.occurredAt) {
        found.push(`${m.partition}@${m.offset}: CloudEvents headers do not match the value`);
      }
      if (m.key !== `${value.domain}:${value.tailId}`) found.push(`${m.partition}@${m.offset}: key ${m.key} is not <domain>:<tailId>`);
      return found;
    });
    expect(problems.slice(0, 20)).toEqual([]);
    const types = new Set(messages.map((m) => JSON.parse(m.value!.toString('utf8')).type as string));
    expect([...types].sort()).toEqual([...TAIL_EVENT_TYPES_PUBLISHED].sort());
    console.log(`[published-messages] ${messages.length} messages on ${TAIL_EVENTS_TOPIC.topic}, all valid`);
  });

  it(`${RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC.topic}: every dead letter's headers, with the schema's reason`, async () => {
    const marker = randomUUID();
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({
      topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic,
      messages: [{ key: 'acme', value: JSON.stringify({ eventId: randomUUID(), domain: 'acme', occurredAt: 'yesterday', data: { marker } }) }],
    });
    await producer.disconnect();
    const messages = await eventually(async () => {
      const all = await readToEnd(RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC.topic);
      return all.some((m) => m.value?.toString('utf8').includes(marker)) ? all : undefined;
    }, 30_000);
    const mine = messages.find((m) => m.value?.toString('utf8').includes(marker))!;
    expect(mine.headers['dlq-reason']).toMatch(/^\/occurredAt must match pattern "/);
    expect(messages.flatMap((m) => schemaViolations(RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC, m))).toEqual([]);
  });

  it(`${TOPICS.webhookSubscriptions}: every message's key, CloudEvents headers and value`, async () => {
    const account = await newServiceAccount();
    const subscription = { eventNames: ['Product.RiskAssessmentExecuted'], url: 'http://127.0.0.1:9/hooks' };
    const secret = () => randomBytes(48).toString('hex');
    expect((await api(account, 'POST', '/WebhookSubscriptions/', { ...subscription, sharedSecret: secret() })).status).toBe(200);
    expect((await api(account, 'POST', '/WebhookSubscriptions/', { ...subscription, sharedSecret: secret() })).status).toBe(200); // a rotation
    expect((await api(account, 'DELETE', '/WebhookSubscriptions/')).status).toBe(204);
    const mine = (ms: RawMessage[]) => ms.filter((m) => m.key === account.domain);
    const messages = await eventually(async () => {
      const all = await readToEnd(WEBHOOK_SUBSCRIPTIONS_TOPIC.topic);
      return mine(all).length >= 4 ? all : undefined;
    }, 30_000);

    const problems = messages.flatMap((m) => {
      const value = JSON.parse(m.value!.toString('utf8')) as { eventId: string; type: string; domain: string; occurredAt: string };
      const found = schemaViolations(WEBHOOK_SUBSCRIPTIONS_TOPIC, m);
      if (m.headers[CE.id] !== value.eventId || m.headers[CE.type] !== webhookSubscriptionCloudEventType(value.type) || m.headers[CE.time] !== value.occurredAt) {
        found.push(`${m.partition}@${m.offset}: CloudEvents headers do not match the value`);
      }
      if (m.key !== value.domain) found.push(`${m.partition}@${m.offset}: key ${m.key} is not the domain`);
      return found;
    });
    expect(problems.slice(0, 20)).toEqual([]);
    expect(mine(messages).map((m) => JSON.parse(m.value!.toString('utf8')).type)).toEqual(['SubscriptionSaved', 'SubscriptionSaved', 'SecretRotated', 'SubscriptionDeleted']);
    console.log(`[published-messages] ${messages.length} messages on ${WEBHOOK_SUBSCRIPTIONS_TOPIC.topic}, all valid`);
  });

  it(`${TOPICS.tailEvents} is kept for ever, so a consumer can rebuild from its start`, async () => {
    const admin = kafka().admin();
    await admin.connect();
    const described = await admin.describeConfigs({ resources: [{ type: 2, name: TAIL_EVENTS_TOPIC.topic, configNames: ['retention.ms'] }], includeSynonyms: false }).finally(() => admin.disconnect());
    expect(described.resources[0].configEntries.find((c) => c.configName === 'retention.ms')?.configValue).toBe('-1');
  });

  it('covers every topic tailsync produces to', () => {
    expect(KAFKA_TOPICS.filter((t) => t.tailsync === 'send').map((t) => t.topic).sort()).toEqual(
      [TAIL_EVENTS_TOPIC.topic, RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC.topic, WEBHOOK_SUBSCRIPTIONS_TOPIC.topic].sort(),
    );
  });
});
