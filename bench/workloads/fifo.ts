/**
 * W8: `ordering: "fifo"` throughput. 10 domains with fifo subscriptions to the bench's receiver
 * (answers 200 at once); 100 events per domain produced at once. A fifo domain's events go one at a
 * time (each attempted once the one before it is recorded), so the figure is deliveries per second
 * per domain (in the title); the domains run side by side (the throughput column is all of them). Each domain's callbacks are checked to come in the
 * order produced.
 */
import { RISK_ASSESSMENT_EXECUTED_TOPIC, type RiskAssessmentExecutedMessage } from '@tailsync/contracts';
import type { BenchContext, Row } from '../support/context';
import type { Received } from '../support/helper-main';
import { round, summarize } from '../support/stats';
import { deliveryNotes, riskEvent, waitForReceived } from './events';
import { warmedUp, withSubscribedDomains } from './webhooks';

export const FIFO_DOMAINS = 10;
export const FIFO_EVENTS_PER_DOMAIN = 100;

export function runW8(ctx: BenchContext): Promise<Row> {
  return withSubscribedDomains(ctx, 'W8', FIFO_DOMAINS, 'hmac-sha256', { ordering: 'fifo' }, async (s) => {
    ctx.log('W8: warm-up, one event per domain');
    await warmedUp('W8', s);
    const total = FIFO_DOMAINS * FIFO_EVENTS_PER_DOMAIN;
    const events: RiskAssessmentExecutedMessage[] = Array.from({ length: total }, (_, k) => riskEvent(s.domains[k % FIFO_DOMAINS]));
    ctx.log(`W8: ${FIFO_EVENTS_PER_DOMAIN} events for each of ${FIFO_DOMAINS} fifo domains`);
    const run = await ctx.measure('W8', async () => {
      const start = Date.now();
      for (let i = 0; i < total; i += 500) {
        await s.producer.send({ topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic, acks: -1, messages: events.slice(i, i + 500).map((e) => ({ key: e.domain, value: JSON.stringify(e) })) });
      }
      const got = await waitForReceived(s.receiver, total, 20_000);
      const stats = await s.receiver.request('stats');
      const { records } = await s.receiver.request<{ records: Received[] }>('take');
      return { start, got, stats, records };
    });
    const { start, got, stats, records } = run.result;
    const perDomain = s.domains.map((domain) => {
      const received = records.filter((r) => r.domain === domain).sort((a, b) => a.receivedAt - b.receivedAt);
      const produced = events.filter((e) => e.domain === domain).map((e) => e.eventId);
      const seconds = received.length ? (received[received.length - 1].receivedAt - start) / 1000 : Infinity;
      return { rate: received.length / seconds, inOrder: received.map((r) => r.eventId).join() === produced.slice(0, received.length).join() };
    });
    const rates = summarize(perDomain.map((d) => d.rate));
    const outOfOrder = perDomain.filter((d) => !d.inOrder).length;
    const lastAt = Math.max(...records.map((r) => r.receivedAt));
    const notes = deliveryNotes(got, total, stats);
    if (outOfOrder > 0) notes.push(`${outOfOrder} of ${FIFO_DOMAINS} domains received their callbacks out of the produced order`);
    const allDomains = Math.round(got / ((lastAt - start) / 1000));
    return {
      id: 'W8',
      // The per-domain rate is the figure; the throughput column (and the CPU per delivery) is all domains'.
      title: `${FIFO_EVENTS_PER_DOMAIN} events for each of ${FIFO_DOMAINS} ordering "fifo" domains side by side: ${round(rates.p50, 1)} deliveries/s per domain (median)`,
      throughput: { value: allDomains, unit: 'deliveries/s' },
      cpu: run.cpu,
      notes,
      details: {
        events: total, delivered: got, perDomainRate: { min: Math.round(Math.min(...perDomain.map((d) => d.rate)) * 10) / 10, p50: rates.p50 },
        allDomainsPerSecond: allDomains, domainsInOrder: FIFO_DOMAINS - outOfOrder, receiver: stats,
      },
    };
  });
}
