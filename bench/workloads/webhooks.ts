/**
 * W4: 10,000 Product.RiskAssessmentExecuted events produced to Kafka over 100 domains, each with a
 * webhook subscription to the bench's receiver (a node:http server in a helper process that answers
 * 200 at once). Deliveries per second (first produce → last callback) and event-to-callback latency
 * (receiver clock minus `occurredAt`, set at produce time), then a paced run at 200 events/s, then
 * that paced run beside a noisy neighbour (W6, `noisy-neighbour.ts`). W7 is W4's burst and paced
 * runs with `signatureScheme: "ed25519"` subscriptions (the pair says what a signature costs).
 */
import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED, RISK_ASSESSMENT_EXECUTED_TOPIC, type SignatureScheme } from '@tailsync/contracts';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { idempotentProducer, kafkaConnection } from '@tailsync/service-kit';
import { call, newAccounts } from '../support/api';
import { BenchContext, Row, target } from '../support/context';
import { startHelper, type Helper } from '../support/helpers';
import type { Received } from '../support/helper-main';
import { summarize } from '../support/stats';
import { deliveryNotes, produceBurst, producePaced, waitForReceived } from './events';
import { measureBackfillBeside } from './backfill-beside';
import { measureNoisyNeighbour } from './noisy-neighbour';

export const W4_EVENTS = 10_000;
export const W4_DOMAINS = 100;
export const PACED_RATE = 200;

/** Domains subscribed to the bench's receiver, with the producer that feeds them. */
export interface SubscribedDomains {
  domains: string[];
  producer: Producer;
  receiver: Helper;
  receiverPort: number;
}

/**
 * `count` new domains, each with a service account and a subscription (`extra` added to its body)
 * to a receiver helper that checks every `verifyEvery`-th callback with the domain's secret, or with
 * its JWK Set for `ed25519`. Runs `work`, then stops the receiver and the producer.
 */
export async function withSubscribedDomains<T>(
  ctx: BenchContext, name: string, count: number, scheme: SignatureScheme, extra: Record<string, unknown>, work: (s: SubscribedDomains) => Promise<T>,
): Promise<T> {
  const { baseUrl, adminToken } = ctx.stack;
  const tag = randomBytes(3).toString('hex');
  const domains = Array.from({ length: count }, (_, i) => `bench-${name.toLowerCase()}-${tag}-${i}`);
  ctx.log(`${name}: ${count} service accounts and ${scheme} webhook subscriptions`);
  const accounts = await newAccounts(baseUrl, adminToken, domains);
  const secrets = Object.fromEntries(domains.map((d) => [d, randomBytes(48).toString('base64url')])); // 64 characters
  const receiver = await startHelper('receiver', ctx.stack.helperPids);
  const kafka = new Kafka({ ...kafkaConnection(ctx.stack.kafka), clientId: `bench-${name.toLowerCase()}`, logLevel: logLevel.WARN });
  const producer = idempotentProducer(kafka);
  try {
    const publicKeys: Record<string, unknown> = {};
    const { port } = await receiver.request<{ port: number }>('listen');
    const url = `http://127.0.0.1:${port}/tailsync-hook`;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < accounts.length) {
          const a = accounts[next++];
          const body = { eventNames: [RISK_ASSESSMENT_EXECUTED], url, sharedSecret: secrets[a.domain], signatureScheme: scheme, ...extra };
          const res = await call(baseUrl, a.token, 'POST', '/WebhookSubscriptions', body);
          if (res.status !== 200) throw new Error(`${name}: creating the subscription of ${a.domain}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          if (scheme === 'ed25519') publicKeys[a.domain] = (await call(baseUrl, null, 'GET', `/.well-known/webhooks/jwks.json?domain=${a.domain}`)).body;
        }
      }),
    );
    await receiver.request('verifyWith', { secrets, publicKeys, verifyEvery: 20 });
    await producer.connect();
    return await work({ domains, producer, receiver, receiverPort: port });
  } finally {
    await producer.disconnect().catch(() => undefined);
    await receiver.stop();
  }
}

/** One event per domain, end to end (consumer assigned, connections open, code hot). */
export async function warmedUp(name: string, s: SubscribedDomains): Promise<void> {
  await produceBurst(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, s.domains, s.domains.length);
  const warm = await waitForReceived(s.receiver, s.domains.length, 30_000);
  if (warm < s.domains.length) {
    const stats = await s.receiver.request('stats');
    throw new Error(`${name}: only ${warm} of ${s.domains.length} warm-up events were delivered within 30 s of the last one (receiver: ${JSON.stringify(stats)})`);
  }
  await s.receiver.request('reset');
}

/** W4's burst on subscribed domains, measured as window `id`: a row's figures (deliveries/s, latency, CPU, notes). */
export async function measureBurst(ctx: BenchContext, id: string, s: SubscribedDomains): Promise<{ figures: Required<Pick<Row, 'throughput' | 'latencyMs' | 'cpu' | 'notes' | 'details'>> }> {
  const burst = await ctx.measure(id, async () => {
    const start = Date.now();
    await produceBurst(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, s.domains, W4_EVENTS);
    const producedMs = Date.now() - start;
    const got = await waitForReceived(s.receiver, W4_EVENTS, 20_000);
    const stats = await s.receiver.request('stats');
    const { records } = await s.receiver.request<{ records: Received[] }>('take');
    return { start, producedMs, got, stats, records };
  });
  const b = burst.result;
  const lastAt = Math.max(...b.records.map((r) => r.receivedAt));
  const burstSecs = (lastAt - b.start) / 1000;
  const burstRate = Math.round(b.got / burstSecs);
  const burstLat = summarize(b.records.map((r) => r.receivedAt - r.occurredAt));
  await s.receiver.request('reset');
  return {
    figures: {
      throughput: { value: burstRate, unit: 'deliveries/s' },
      latencyMs: { p50: burstLat.p50, p99: burstLat.p99, what: 'event → callback' },
      cpu: burst.cpu,
      notes: deliveryNotes(b.got, W4_EVENTS, b.stats),
      details: { events: W4_EVENTS, delivered: b.got, produceMs: b.producedMs, seconds: Math.round(burstSecs * 100) / 100, latencyMs: burstLat, receiver: b.stats },
    },
  };
}

/** The burst and the paced run of `name` (W4, W7) on subscribed domains, and the paced p99. */
async function burstAndPaced(ctx: BenchContext, name: string, signed: string, s: SubscribedDomains): Promise<{ rows: Row[]; pacedP99: number }> {
  ctx.log(`${name}: warm-up, one event per domain`);
  await warmedUp(name, s);
  ctx.log(`${name}: burst of ${W4_EVENTS} events`);
  const burst = await measureBurst(ctx, `${name}-burst`, s);

  const pacedSecs = ctx.durationS;
  ctx.log(`${name}: paced, ${PACED_RATE} events/s for ${pacedSecs} s`);
  const paced = await ctx.measure(`${name}-paced`, async () => {
    const sent = await producePaced(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, s.domains, PACED_RATE, pacedSecs);
    const got = await waitForReceived(s.receiver, sent, 20_000);
    const stats = await s.receiver.request('stats');
    const { records } = await s.receiver.request<{ records: Received[] }>('take');
    return { sent, got, stats, records };
  });
  const p = paced.result;
  const pacedLat = summarize(p.records.map((r) => r.receivedAt - r.occurredAt));
  await s.receiver.request('reset');
  return {
    pacedP99: pacedLat.p99,
    rows: [
      {
        id: `${name}-burst`,
        title: `${W4_EVENTS.toLocaleString('en-US')} events over ${W4_DOMAINS} domains → ${signed} callbacks (burst)`,
        ...burst.figures,
        target: target('≥ 2,000 deliveries/s', { min: [burst.figures.throughput.value, 2000] }),
      },
      {
        id: `${name}-paced`,
        title: `Events paced at ${PACED_RATE}/s for ${pacedSecs} s → ${signed} callbacks`,
        throughput: { value: Math.round(p.got / pacedSecs), unit: 'deliveries/s' },
        latencyMs: { p50: pacedLat.p50, p99: pacedLat.p99, what: 'event → callback' },
        target: target('p99 ≤ 250 ms at 200 events/s', { maxP99: [pacedLat.p99, 250] }),
        cpu: paced.cpu,
        notes: deliveryNotes(p.got, p.sent, p.stats),
        details: { events: p.sent, delivered: p.got, latencyMs: pacedLat, receiver: p.stats },
      },
    ],
  };
}

export function runW4(ctx: BenchContext): Promise<Row[]> {
  return withSubscribedDomains(ctx, 'W4', W4_DOMAINS, 'hmac-sha256', {}, async (s) => {
    const { rows, pacedP99 } = await burstAndPaced(ctx, 'W4', 'HMAC-signed', s);
    const noisy = await measureNoisyNeighbour(ctx, { producer: s.producer, receiver: s.receiver, receiverPort: s.receiverPort, domains: s.domains, normalRate: PACED_RATE, pacedP99 });
    const backfill = await measureBackfillBeside(ctx, { producer: s.producer, receiver: s.receiver, domains: s.domains, normalRate: PACED_RATE, pacedP99 });
    return [...rows, noisy, backfill];
  });
}

/** W4's burst and paced runs with Ed25519 signatures (the domain's key: a `v1a` signature and an EdDSA JWT per attempt). */
export function runW7(ctx: BenchContext): Promise<Row[]> {
  return withSubscribedDomains(ctx, 'W7', W4_DOMAINS, 'ed25519', {}, async (s) => (await burstAndPaced(ctx, 'W7', 'Ed25519-signed', s)).rows);
}
