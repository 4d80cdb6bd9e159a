/**
 * W4L: W4's burst with the delivery log empty and with `BENCH_FILLED_LOG` deliveries (default 10
 * million) in its past five weeks, alternating on one stack (empty, filled, empty, filled: the
 * machine's load drifts), on W4's 100 subscribed domains. The target: the filled bursts' mean
 * within 10 % of the empty ones'. The filled log is made once (`FilledLog`), then swapped in and out.
 */
import { FilledLog } from '../support/filled-log';
import { BenchContext, Row, target } from '../support/context';
import { measureBurst, W4_DOMAINS, W4_EVENTS, warmedUp, withSubscribedDomains } from './webhooks';

const ROUNDS = ['empty', 'filled', 'empty', 'filled'] as const;

export function runW4L(ctx: BenchContext): Promise<Row[]> {
  const databaseUrl = ctx.stack.databaseUrl;
  if (!databaseUrl || ctx.stack.mode !== 'local') throw new Error('W4L fills the delivery log of the bench\'s own stack: run it without BASE_URL');
  const total = Number(process.env.BENCH_FILLED_LOG ?? 10_000_000);
  return withSubscribedDomains(ctx, 'W4L', W4_DOMAINS, 'hmac-sha256', {}, async (s) => {
    ctx.log(`W4L: filling the delivery log with ${total.toLocaleString('en-US')} deliveries over five past weeks`);
    const started = Date.now();
    const log = await FilledLog.make(databaseUrl, total, ctx.log);
    const fillS = Math.round((Date.now() - started) / 1000);
    try {
      const rows: Row[] = [];
      for (const [i, kind] of ROUNDS.entries()) {
        await (kind === 'filled' ? log.attach() : log.detach());
        ctx.log(`W4L: warm-up, then a burst of ${W4_EVENTS} events with the log ${kind}`);
        await warmedUp('W4L', s);
        const { figures } = await measureBurst(ctx, `W4L-${kind}-${i + 1}`, s);
        rows.push({ id: `W4L-${kind}-${i + 1}`, title: `W4-burst, delivery log ${kind === 'filled' ? `with ${log.total.toLocaleString('en-US')} deliveries` : 'empty'} (round ${i + 1})`, ...figures });
      }
      const mean = (kind: string) => {
        const of = rows.filter((r) => r.id.includes(`-${kind}-`)).map((r) => r.throughput?.value ?? 0);
        return of.reduce((a, b) => a + b, 0) / of.length;
      };
      const ratio = mean('filled') / mean('empty');
      rows.push({
        id: 'W4L',
        title: `W4-burst with ${log.total.toLocaleString('en-US')} deliveries in the log ÷ with it empty (means of ${ROUNDS.length / 2} rounds each)`,
        throughput: { value: Math.round(mean('filled')), unit: 'deliveries/s' },
        target: target('within 10 % of the empty log', { min: [ratio, 0.9] }),
        details: { emptyMean: Math.round(mean('empty')), filledMean: Math.round(mean('filled')), ratio: Math.round(ratio * 1000) / 1000, filledDeliveries: log.total, fillSeconds: fillS },
      });
      return rows;
    } finally {
      await log.remove();
    }
  });
}
