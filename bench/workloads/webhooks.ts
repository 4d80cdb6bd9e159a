/**
 * W4: 10,000 Product.RiskAssessmentExecuted events produced to Kafka over 100 domains, each with a
 * webhook subscription to the bench's receiver (a node:http server in a helper process that answers
 * 200 at once). Deliveries per second (first produce → last callback) and event-to-callback latency
 * (receiver clock minus `occurredAt`, set at produce time), then a paced run at 200 events/s, then
 * that paced run beside a noisy neighbour (W6, `noisy-neighbour.ts`).
 */
import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED, TOPICS } from '@tailsync/contracts';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { kafkaConnection } from '@tailsync/service-kit';
import { call, newAccounts } from '../support/api';
import { BenchContext, Row, target } from '../support/context';
import { startHelper } from '../support/helpers';
import type { Received } from '../support/helper-main';
import { summarize } from '../support/stats';
import { deliveryNotes, produceBurst, producePaced, waitForReceived } from './events';
import { measureNoisyNeighbour } from './noisy-neighbour';

export const W4_EVENTS = 10_000;
export const W4_DOMAINS = 100;
export const PACED_RATE = 200;

export async function runW4(ctx: BenchContext): Promise<Row[]> {
  const { baseUrl, adminToken } = ctx.stack;
  const tag = randomBytes(3).toString('hex');
  const domains = Array.from({ length: W4_DOMAINS }, (_, i) => `bench-w4-${tag}-${i}`);
  ctx.log(`W4: ${W4_DOMAINS} service accounts and webhook subscriptions`);
  const accounts = await newAccounts(baseUrl, adminToken, domains);
  const secrets = Object.fromEntries(domains.map((d) => [d, randomBytes(48).toString('base64url')])); // 64 characters
  const receiver = await startHelper('receiver', ctx.stack.helperPids);
  const kafka = new Kafka({ ...kafkaConnection(ctx.stack.kafka), clientId: 'bench-w4', logLevel: logLevel.WARN });
  const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  try {
    const { port } = await receiver.request<{ port: number }>('start', { secrets, verifyEvery: 20 });
    const url = `http://127.0.0.1:${port}/tailsync-hook`;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < accounts.length) {
          const a = accounts[next++];
          const res = await call(baseUrl, a.token, 'POST', '/WebhookSubscriptions', { eventNames: [RISK_ASSESSMENT_EXECUTED], url, sharedSecret: secrets[a.domain] });
          if (res.status !== 200) throw new Error(`W4: creating the subscription of ${a.domain}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }),
    );
    await producer.connect();

    // Warm-up: one event per domain, end to end (consumer assigned, connections open, code hot).
    ctx.log('W4: warm-up, one event per domain');
    await produceBurst(producer, TOPICS.riskAssessmentExecuted, domains, W4_DOMAINS);
    const warm = await waitForReceived(receiver, W4_DOMAINS, 30_000);
    if (warm < W4_DOMAINS) {
      const stats = await receiver.request('stats');
      throw new Error(`W4: only ${warm} of ${W4_DOMAINS} warm-up events were delivered within 30 s of the last one (receiver: ${JSON.stringify(stats)})`);
    }
    await receiver.request('reset');

    ctx.log(`W4: burst of ${W4_EVENTS} events`);
    const burst = await ctx.measure('W4-burst', async () => {
      const start = Date.now();
      await produceBurst(producer, TOPICS.riskAssessmentExecuted, domains, W4_EVENTS);
      const producedMs = Date.now() - start;
      const got = await waitForReceived(receiver, W4_EVENTS, 20_000);
      const stats = await receiver.request('stats');
      const { records } = await receiver.request<{ records: Received[] }>('take');
      return { start, producedMs, got, stats, records };
    });
    const b = burst.result;
    const lastAt = Math.max(...b.records.map((r) => r.receivedAt));
    const burstSecs = (lastAt - b.start) / 1000;
    const burstRate = Math.round(b.got / burstSecs);
    const burstLat = summarize(b.records.map((r) => r.receivedAt - r.occurredAt));
    await receiver.request('reset');

    const pacedSecs = ctx.durationS;
    ctx.log(`W4: paced, ${PACED_RATE} events/s for ${pacedSecs} s`);
    const paced = await ctx.measure('W4-paced', async () => {
      const sent = await producePaced(producer, TOPICS.riskAssessmentExecuted, domains, PACED_RATE, pacedSecs);
      const got = await waitForReceived(receiver, sent, 20_000);
      const stats = await receiver.request('stats');
      const { records } = await receiver.request<{ records: Received[] }>('take');
      return { sent, got, stats, records };
    });
    const p = paced.result;
    const pacedLat = summarize(p.records.map((r) => r.receivedAt - r.occurredAt));
    await receiver.request('reset');
    const noisy = await measureNoisyNeighbour(ctx, { producer, receiver, receiverPort: port, domains, normalRate: PACED_RATE, pacedP99: pacedLat.p99 });

    return [
      {
        id: 'W4-burst',
        title: `${W4_EVENTS.toLocaleString('en-US')} events over ${W4_DOMAINS} domains → signed callbacks (burst)`,
        throughput: { value: burstRate, unit: 'deliveries/s' },
        latencyMs: { p50: burstLat.p50, p99: burstLat.p99, what: 'event → callback' },
        target: target('≥ 2,000 deliveries/s', { min: [burstRate, 2000] }),
        cpu: burst.cpu,
        notes: deliveryNotes(b.got, W4_EVENTS, b.stats),
        details: { events: W4_EVENTS, delivered: b.got, produceMs: b.producedMs, seconds: Math.round(burstSecs * 100) / 100, latencyMs: burstLat, receiver: b.stats },
      },
      {
        id: 'W4-paced',
        title: `Events paced at ${PACED_RATE}/s for ${pacedSecs} s → signed callbacks`,
        throughput: { value: Math.round(p.got / pacedSecs), unit: 'deliveries/s' },
        latencyMs: { p50: pacedLat.p50, p99: pacedLat.p99, what: 'event → callback' },
        target: target('p99 ≤ 250 ms at 200 events/s', { maxP99: [pacedLat.p99, 250] }),
        cpu: paced.cpu,
        notes: deliveryNotes(p.got, p.sent, p.stats),
        details: { events: p.sent, delivered: p.got, latencyMs: pacedLat, receiver: p.stats },
      },
      noisy,
    ];
  } finally {
    await producer.disconnect().catch(() => undefined);
    await receiver.stop();
  }
}

