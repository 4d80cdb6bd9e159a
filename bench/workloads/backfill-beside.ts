/**
 * W9, a backfill beside live traffic (issue 46): W4-paced's domains at 200 events/s while one more
 * domain backfills 7 days of a topic filled with its events published before it subscribed. The
 * job reads and stores in pages, paced at the recovery rate, so the other domains'
 * event-to-callback p99 must stay within 2× W4-paced's, measured in the same run.
 */
import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED, RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import { call, newAccounts } from '../support/api';
import type { BenchContext, Row } from '../support/context';
import { target } from '../support/context';
import { startHelper } from '../support/helpers';
import type { Received } from '../support/helper-main';
import { summarize } from '../support/stats';
import { deliveryNotes, produceBurst, producePaced, waitForReceived } from './events';
import type { NoisyNeighbourSetting } from './noisy-neighbour';

/** The backfilling domain's events on the topic before it subscribes (BENCH_BACKFILL_EVENTS). */
const FILL_EVENTS = Number(process.env.BENCH_BACKFILL_EVENTS ?? 50_000);
/** Time for the dispatcher to consume (and skip) the fill before the measured window. */
const FILL_SETTLE_MS = 20_000;

export type BackfillBesideSetting = Omit<NoisyNeighbourSetting, 'receiverPort'>;

export async function measureBackfillBeside(ctx: BenchContext, s: BackfillBesideSetting): Promise<Row> {
  const { baseUrl, adminToken } = ctx.stack;
  const [filler] = await newAccounts(baseUrl, adminToken, [`bench-w9-${randomBytes(3).toString('hex')}`]);
  ctx.log(`W9: ${FILL_EVENTS} events of one domain on the topic before it subscribes`);
  await produceBurst(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, [filler.domain], FILL_EVENTS);
  await new Promise((r) => setTimeout(r, FILL_SETTLE_MS));
  // Its callbacks go to a receiver of its own, so the well-behaved domains' counts stay theirs.
  const own = await startHelper('receiver', ctx.stack.helperPids);
  let backfillId: string | undefined;
  try {
    const { port } = await own.request<{ port: number }>('listen');
    const saved = await call(baseUrl, filler.token, 'POST', '/WebhookSubscriptions', {
      eventNames: [RISK_ASSESSMENT_EXECUTED], url: `http://127.0.0.1:${port}/tailsync-hook`, sharedSecret: randomBytes(48).toString('base64url'),
    });
    if (saved.status !== 200) throw new Error(`W9: subscribing the backfilling domain: ${saved.status} ${JSON.stringify(saved.body).slice(0, 300)}`);
    await s.receiver.request('reset');
    const seconds = ctx.durationS;
    ctx.log(`W9: ${s.normalRate} events/s to W4's domains while one domain backfills 7 days, ${seconds} s`);
    const run = await ctx.measure('W9', async () => {
      const queued = await call(baseUrl, filler.token, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', { since: new Date(Date.now() - 7 * 86_400_000 + 60_000).toISOString() });
      if (queued.status !== 202) throw new Error(`W9: queueing the backfill: ${queued.status} ${JSON.stringify(queued.body).slice(0, 300)}`);
      backfillId = (queued.body as { backfillId: string }).backfillId;
      const sent = await producePaced(s.producer, RISK_ASSESSMENT_EXECUTED_TOPIC.topic, s.domains, s.normalRate, seconds);
      const got = await waitForReceived(s.receiver, sent, 20_000);
      const stats = await s.receiver.request<Record<string, unknown>>('stats');
      const { records } = await s.receiver.request<{ records: Received[] }>('take');
      const job = (await call(baseUrl, filler.token, 'GET', `/WebhookSubscriptions/Deliveries/Backfill/${backfillId}`)).body;
      const backfilled = (await own.request<{ distinct: number }>('stats')).distinct;
      return { sent, got, stats, records, job, backfilled };
    });
    const r = run.result;
    const latency = summarize(r.records.map((x) => x.receivedAt - x.occurredAt));
    return {
      id: 'W9',
      title: `W4-paced's domains at ${s.normalRate}/s beside one domain backfilling 7 days (${FILL_EVENTS} of its events on the topic)`,
      throughput: { value: Math.round(r.got / seconds), unit: 'deliveries/s' },
      latencyMs: { p50: latency.p50, p99: latency.p99, what: 'event → callback, the other domains' },
      target: target(`p99 ≤ 2× W4-paced's (${s.pacedP99} ms) in the same run`, { maxP99: [latency.p99, 2 * s.pacedP99] }),
      cpu: run.cpu,
      notes: deliveryNotes(r.got, r.sent, r.stats),
      details: { events: r.sent, delivered: r.got, latencyMs: latency, backfill: r.job, backfillCallbacks: r.backfilled, receiver: r.stats },
    };
  } finally {
    // Its paced deliveries would go on into the next workloads.
    if (backfillId) await call(baseUrl, filler.token, 'DELETE', `/WebhookSubscriptions/Deliveries/Backfill/${backfillId}`);
    await call(baseUrl, filler.token, 'DELETE', '/WebhookSubscriptions');
    await own.stop();
  }
}
