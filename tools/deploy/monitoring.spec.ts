import { spawnSync } from 'node:child_process';
import { builtTool, TOOL_BUILD_TIMEOUT_MS } from '../test/built-tools';
import { ALERT_RULES, ALERT_RULE_TESTS, metricNamesIn, monitoringExpressions } from './monitored-metrics';

describe('deploy/: the alert rules, by Prometheus\'s own promtool', () => {
  let promtool: string;

  // Built from its Go module, in the background while the suite runs: only these tests wait.
  beforeAll(async () => {
    promtool = await builtTool('promtool');
  }, TOOL_BUILD_TIMEOUT_MS);

  it('pass `promtool check rules`', () => {
    const run = spawnSync(promtool, ['check', 'rules', ALERT_RULES], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status).toBe(0);
  });

  it('fire as `promtool test rules` expects, and stay quiet on healthy series', () => {
    const run = spawnSync(promtool, ['test', 'rules', ALERT_RULE_TESTS], { encoding: 'utf8' });
    expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });
});

describe('deploy/: the alert rules and the dashboard', () => {
  it('name metrics in every expression (the e2e monitoring test checks the apps export each)', () => {
    const expressions = monitoringExpressions();
    expect(expressions.length).toBeGreaterThan(20);
    for (const { source, expr } of expressions) expect({ source, names: metricNamesIn(expr).size > 0 }).toEqual({ source, names: true });
  });

  it('reads metric names out of PromQL: matchers, grouping, ranges and functions are not names', () => {
    expect(metricNamesIn('histogram_quantile(0.99, sum by (le, http_route) (rate(http_server_request_duration_seconds_bucket{job="g", x=~"5.."}[5m]))) > 1')).toEqual(
      new Set(['http_server_request_duration_seconds']),
    );
    expect(metricNamesIn('min_over_time(kafka_consumer_group_lag[15m]) > 0 and delta(kafka_consumer_group_lag[15m]) >= 0')).toEqual(new Set(['kafka_consumer_group_lag']));
    expect(metricNamesIn('max(a_total) > 10000 and deriv(max(b_depth)[30m:1m]) > 0')).toEqual(new Set(['a_total', 'b_depth']));
  });
});
