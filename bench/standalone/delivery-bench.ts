/**
 * Measures the webhook side of a running stack (`npm start`, or any gateway + dispatcher):
 *   1. throughput: a burst of events to fast local receivers → deliveries per second;
 *   2. latency: events published at a steady rate → event-to-callback latency p50 / p99.
 *
 *   BENCH_BASE_URL=http://localhost:3000 ADMIN_TOKEN=… KAFKA_BROKERS=127.0.0.1:9092 \
 *     node tools/run.js bench/standalone/delivery-bench.ts [--burst 10000] [--domains 4] [--rate 200] [--seconds 10]
 *
 * The stack's dispatcher needs WEBHOOK_ALLOW_PRIVATE_URLS=true (the receivers listen on 127.0.0.1).
 * Traffic stays on this machine; every loop is bounded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import { idempotentProducer, kafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import { publishRiskAssessments } from '@tailsync/tools/testing';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';

const base = process.env.BENCH_BASE_URL ?? 'http://localhost:3000';
const kafka = kafkaConnection(process.env);
const EVT = 'Product.RiskAssessmentExecuted';

async function account(): Promise<{ domain: string; token: string }> {
  const domain = `bench-${randomBytes(4).toString('hex')}`;
  const created = await fetch(`${base}/admin/ServiceAccounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ domain, name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`service account: ${created.status} ${await created.text()}`);
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { domain, token: ((await token.json()) as { access_token: string }).access_token };
}

async function subscribe(a: { token: string }, url: string): Promise<void> {
  const res = await fetch(`${base}/WebhookSubscriptions/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventNames: [EVT], url, sharedSecret: randomBytes(48).toString('hex') }),
  });
  if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main() {
  const { values } = parseArgs({
    options: { burst: { type: 'string' }, domains: { type: 'string' }, rate: { type: 'string' }, seconds: { type: 'string' } },
  });
  const burst = Number(values.burst ?? 10_000);
  const domains = Number(values.domains ?? 4);
  const rate = Number(values.rate ?? 200);
  const seconds = Number(values.seconds ?? 10);

  // 1. Throughput
  const targets = await Promise.all(
    Array.from({ length: domains }, async () => {
      const [a, r] = await Promise.all([account(), WebhookReceiver.start(scripts.status(200))]);
      await subscribe(a, r.url);
      return { a, r };
    }),
  );
  const perDomain = Math.ceil(burst / domains);
  const t0 = Date.now();
  await Promise.all(targets.map(({ a }) => publishRiskAssessments({ kafka, domain: a.domain, count: perDomain, data: { score: 1 } })));
  const published = Date.now();
  await Promise.all(targets.map(({ r }) => r.waitFor(perDomain, 300_000)));
  const done = Date.now();
  const total = perDomain * domains;
  console.log(`throughput: ${total} events over ${domains} domain(s): published in ${published - t0} ms, all delivered ${done - t0} ms after the first publish → ${Math.round((total * 1000) / (done - t0))} deliveries/s`);
  await Promise.all(targets.map(({ r }) => r.reset()));

  // 2. Latency at a steady rate, spread over the same domains
  const r = targets[0].r;
  await Promise.all(targets.slice(1).map(({ a }) => subscribe(a, r.url)));
  let turn = 0;
  const n = rate * seconds;
  const tickMs = 50;
  const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
  const producer = idempotentProducer(new Kafka({ ...kafka, clientId: 'bench', logLevel: logLevel.NOTHING }));
  await producer.connect();
  const start = Date.now();
  let sent = 0;
  while (sent < n) {
    const due = Math.min(n, Math.floor(((Date.now() - start) / 1000) * rate) + perTick);
    if (due > sent) {
      const count = due - sent;
      sent = due;
      const occurredAt = new Date().toISOString();
      await producer.send({
        topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic,
        messages: Array.from({ length: count }, () => {
          const domain = targets[turn++ % targets.length].a.domain;
          return { key: domain, value: JSON.stringify({ eventId: randomUUID(), domain, occurredAt, data: { score: 1 } }) };
        }),
      });
    }
    await new Promise((res) => setTimeout(res, tickMs));
  }
  await r.waitFor(n, 120_000);
  await producer.disconnect();
  const latencies = r.requests.map((q) => q.receivedAt - Date.parse(JSON.parse(q.rawBody.toString()).occurredAt));
  console.log(`latency at ${rate} events/s for ${seconds} s (${n} events over ${domains} domain(s)): p50 ${pct(latencies, 0.5)} ms, p99 ${pct(latencies, 0.99)} ms, max ${Math.max(...latencies)} ms`);
  await Promise.all(targets.map(({ r }) => r.close()));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
