import { ruleTestInput, seriesName, type TargetScrape } from './rule-test-input';

const gateway = (slot: number, samples?: Record<string, number>): TargetScrape => ({
  job: 'tailsync-gateway',
  instance: '127.0.0.1:24010',
  slot,
  samples: samples && new Map(Object.entries(samples)),
});

describe('scrapes as a promtool rule test input', () => {
  it('labels each series with its job and instance, as Prometheus stores a scrape', () => {
    expect(seriesName('webhook_deliveries_total{outcome="failed"}', 'tailsync-webhook-dispatcher', 'h:1')).toBe(
      'webhook_deliveries_total{job="tailsync-webhook-dispatcher", instance="h:1", outcome="failed"}',
    );
    expect(seriesName('process_start_time_seconds', 'j', 'h:1')).toBe('process_start_time_seconds{job="j", instance="h:1"}');
    // A target's own job label is kept as exported_job (honor_labels: false); escaped quotes stay.
    expect(seriesName('x{job="a",reason="say \\"hi\\""}', 'j', 'h:1')).toBe('x{job="j", instance="h:1", exported_job="a", reason="say \\"hi\\""}');
  });

  it('writes up per scrape, a stale marker where a failed scrape or a vanished series ends a series, and nothing where no scrape was taken', () => {
    const input = ruleTestInput({
      ruleFile: '/rules.yml',
      intervalSeconds: 2,
      scrapes: [gateway(0, { a: 1, b: 5 }), gateway(1, { a: 2 }), gateway(2), gateway(4, { a: NaN, b: Infinity }), gateway(5, { a: 1e21, b: -3 })],
    });
    expect(input.tests[0].input_series).toEqual([
      { series: 'up{job="tailsync-gateway", instance="127.0.0.1:24010"}', values: '1 1 0 _ 1 1' },
      { series: 'a{job="tailsync-gateway", instance="127.0.0.1:24010"}', values: '1 2 stale _ NaN 1e+21' },
      { series: 'b{job="tailsync-gateway", instance="127.0.0.1:24010"}', values: '5 stale _ _ +Inf -3' },
    ]);
  });

  it('evaluates the rules at the scrape interval and asks when each alert was first and last pending or firing', () => {
    const input = ruleTestInput({ ruleFile: '/rules.yml', intervalSeconds: 2, scrapes: [gateway(0, { a: 1 }), gateway(30, { a: 1 })] });
    expect(input.rule_files).toEqual(['/rules.yml']);
    expect(input.evaluation_interval).toBe('2s');
    expect(input.tests[0].interval).toBe('2s');
    expect(input.tests[0].promql_expr_test).toEqual([
      { expr: 'min_over_time(timestamp(ALERTS)[60s:2s])', eval_time: '60s', exp_samples: [] },
      { expr: 'max_over_time(timestamp(ALERTS)[60s:2s])', eval_time: '60s', exp_samples: [] },
    ]);
  });
});
