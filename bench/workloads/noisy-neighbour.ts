/**
 * W6, the noisy neighbour (contract, "Abuse and tenant isolation"): W4-paced's domains at 200
 * events/s while one more domain, whose receiver accepts every callback and never answers, gets
 * 100 events/s. Its attempts hold the dispatcher's connections until the attempt time-out; the
 * other domains' event-to-callback p99 must stay within 2× W4-paced's, measured in the same run.
 */
import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED, RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import type { Producer } from 'kafkajs';
import { call, newAccounts } from '../support/api';
import type { BenchContext, Row } from '../support/context';
import { target } from '../support/context';
import type { Helper } from '../support/helpers';
import type { Received } from '../support/helper-main';
import { summarize } from '../support/stats';
import { deliveryNotes, producePaced, waitForReceived } from './events';

export const NOISY_RATE = 100;

export interface NoisyNeighbourSetting {
  producer: Producer;
  receiver: Helper;
  receiverPort: number;
  /** The well-behaved domains (W4's, already subscribed to the answering receiver). */
  domains: string[];
  normalRate: number;
  /** W4-paced's p99 in this run: the target is at most twice it. */
  pacedP99: number;
}

export async function measureNoisyNeighbour(ctx: BenchContext, s: NoisyNeighbourSetting): Promise<Row> {
  const { baseUrl, adminToken } = ctx.stack;
  const [noisy] = await newAccounts(baseUrl, adminToken, [`bench-w6-${randomBytes(3).toString('hex')}`]);
  const url = `http://127.0.0.1:${s.receiverPort}/hang/${noisy.domain}`;
  const saved = await call(baseUrl, noisy.token, 'POST', '/WebhookSubscriptions', { eventNames: [RISK_ASSESSMENT_EXECUTED], url, sharedSecret: randomBytes(48).toString('base64url') });
  if (saved.status !== 200) throw new Error(`W6: subscribing the noisy domain: ${saved.status} ${JSON.stringify(saved.body).slice(0, 300)}`);
  await s.receiver.request('reset');
  const seconds = ctx.durationS;
  ctx.log(`W6: ${s.normalRate} events/s to answering receivers beside ${NOISY_RATE} events/s to one that never answers, ${seconds} s`);
  try {
    const run = await ctx.measure('W6', async () => {
      const [sent] = await Promise.all([
        producePaced(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, s.domains, s.normalRate, seconds),
        producePaced(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, [noisy.domain], NOISY_RATE, seconds),
      ]);
      const got = await waitForReceived(s.receiver, sent, 20_000);
      const stats = await s.receiver.request<Record<string, unknown>>('stats');
      const { records } = await s.receiver.request<{ records: Received[] }>('take');
      return { sent, got, stats, records };
    });
    const r = run.result;
    const latency = summarize(r.records.map((x) => x.receivedAt - x.occurredAt));
    return {
      id: 'W6',
      title: `W4-paced's domains at ${s.normalRate}/s beside one at ${NOISY_RATE}/s whose receiver never answers`,
      throughput: { value: Math.round(r.got / seconds), unit: 'deliveries/s' },
      latencyMs: { p50: latency.p50, p99: latency.p99, what: 'event → callback, well-behaved domains' },
      target: target(`p99 ≤ 2× W4-paced's (${s.pacedP99} ms) in the same run`, { maxP99: [latency.p99, 2 * s.pacedP99] }),
      cpu: run.cpu,
      notes: deliveryNotes(r.got, r.sent, r.stats),
      details: { events: r.sent, delivered: r.got, latencyMs: latency, hangingCallbacks: r.stats.hanging, receiver: r.stats },
    };
  } finally {
    // Its retries would go on into the next workloads.
    await call(baseUrl, noisy.token, 'DELETE', '/WebhookSubscriptions');
  }
}
