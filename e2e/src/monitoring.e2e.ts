import { exportedMetricNames, metricNamesIn, monitoringExpressions, PROMETHEUS_OWN } from '@tailsync/tools/testing';
import { E2E_PORTS, managementUrl } from './support/test-stack';

/** Where Prometheus scrapes each app: the gateway's management port, the services' HTTP ports. */
const SCRAPED = {
  gateway: `${managementUrl()}/metrics`,
  'tail-sync': `http://127.0.0.1:${E2E_PORTS['tail-sync']}/metrics`,
  'webhook-dispatcher': `http://127.0.0.1:${E2E_PORTS['webhook-dispatcher']}/metrics`,
};

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

describe('monitoring: what deploy/ names, the apps export', () => {
  // The dispatcher reads its consumer lag from the broker at each scrape and gives up after 1 s
  // (leaving the series out): its first scrapes may come before its admin client has connected.
  beforeAll(async () => {
    const started = Date.now();
    while (!/^kafka_consumer_group_lag\{/m.test(await scrape(SCRAPED['webhook-dispatcher']))) {
      if (Date.now() - started > 20_000) throw new Error('the dispatcher has not reported kafka_consumer_group_lag in 20 s of scrapes');
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 30_000);

  it('every metric an alert rule or a dashboard panel reads is on some app\'s /metrics', async () => {
    const exported = new Map<string, Set<string>>();
    for (const [app, url] of Object.entries(SCRAPED)) exported.set(app, exportedMetricNames(await scrape(url)));
    const everywhere = new Set([...exported.values()].flatMap((names) => [...names]));
    const missing = monitoringExpressions().flatMap(({ source, expr }) =>
      [...metricNamesIn(expr)].filter((name) => !PROMETHEUS_OWN.has(name) && !everywhere.has(name)).map((name) => `${source}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('exports the issue\'s metrics under OpenTelemetry semantic-convention names, where each belongs', async () => {
    const gateway = exportedMetricNames(await scrape(SCRAPED.gateway));
    const tailSync = exportedMetricNames(await scrape(SCRAPED['tail-sync']));
    const dispatcher = exportedMetricNames(await scrape(SCRAPED['webhook-dispatcher']));
    expect(gateway).toContain('http_server_request_duration_seconds');
    for (const name of ['tailsync_reader_lag_seconds', 'tailsync_reader_lag_events', 'tailsync_tail_events_relay_lag_seconds']) expect(tailSync).toContain(name);
    for (const name of ['kafka_consumer_group_lag', 'webhook_deliveries_total', 'webhook_attempt_duration_seconds', 'http_client_request_duration_seconds']) {
      expect(dispatcher).toContain(name);
    }
  });

  it('reports consumer lag per topic and partition, and the readers\' lag per reader', async () => {
    const dispatcher = await scrape(SCRAPED['webhook-dispatcher']);
    expect(dispatcher).toMatch(/^kafka_consumer_group_lag\{group="[^"]+",topic="product\.risk-assessment-executed",partition="0"\} \d+$/m);
    const tailSync = await scrape(SCRAPED['tail-sync']);
    expect(tailSync).toMatch(/^tailsync_reader_lag_seconds\{reader="tails"\} [\d.e+-]+$/m);
    expect(tailSync).toMatch(/^tailsync_reader_lag_seconds\{reader="relay:tailsync\.tail-events"\} [\d.e+-]+$/m);
  });

  it('reports the delivery log\'s weekly partitions against its retention (35 days by default)', async () => {
    const dispatcher = await scrape(SCRAPED['webhook-dispatcher']);
    expect(dispatcher).toMatch(/^webhook_delivery_log_retention_seconds 3024000$/m);
    // this week's and four ahead, at least (more when the stack's log is older)
    expect(Number(/^webhook_delivery_log_partitions (\d+)$/m.exec(dispatcher)?.[1])).toBeGreaterThanOrEqual(5);
    // the oldest week kept has not ended more than the retention ago
    expect(Number(/^webhook_delivery_log_oldest_week_end_seconds (\S+)$/m.exec(dispatcher)?.[1])).toBeLessThan(3024000);
  });
});
