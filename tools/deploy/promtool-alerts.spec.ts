import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtTool, TOOL_BUILD_TIMEOUT_MS } from '../test/built-tools';
import { ALERT_RULES } from './monitored-metrics';
import { alertsRaised } from './promtool-alerts';
import { ruleTestInput, type TargetScrape } from './rule-test-input';

/** `count` scrapes of one copy every 2 s; `answers(slot)` false where its scrape failed. */
function scrapesOf(job: string, instance: string, count: number, answers: (slot: number) => boolean, samples: (slot: number) => Record<string, number> = () => ({})): TargetScrape[] {
  return Array.from({ length: count }, (_, slot) => ({ job, instance, slot, samples: answers(slot) ? new Map(Object.entries(samples(slot))) : undefined }));
}

describe('the alerts Prometheus\'s rule engine raises over scrapes (promtool)', () => {
  let promtool: string;

  beforeAll(async () => {
    promtool = await builtTool('promtool');
  }, TOOL_BUILD_TIMEOUT_MS);

  it('a copy whose scrapes fail: TailsyncInstanceDown pending at once, firing after its 2 minutes; the others quiet', async () => {
    const down = scrapesOf('tailsync-gateway', '127.0.0.1:1', 100, (slot) => slot < 5);
    const healthy = scrapesOf('tailsync-gateway', '127.0.0.1:2', 100, () => true, () => ({ process_start_time_seconds: 1000 }));
    const alerts = await alertsRaised(promtool, ruleTestInput({ ruleFile: ALERT_RULES, intervalSeconds: 2, scrapes: [...down, ...healthy] }));
    expect(alerts).toEqual([
      { alertname: 'TailsyncInstanceDown', state: 'pending', labels: { instance: '127.0.0.1:1', job: 'tailsync-gateway', severity: 'page' }, firstSeconds: 10, lastSeconds: 128 },
      { alertname: 'TailsyncInstanceDown', state: 'firing', labels: { instance: '127.0.0.1:1', job: 'tailsync-gateway', severity: 'page' }, firstSeconds: 130, lastSeconds: 198 },
    ]);
  });

  it('a copy restarted three times: TailsyncRestartingOften fires at the third restart and stays', async () => {
    const starts = scrapesOf('tailsync-tail-sync', '127.0.0.1:3', 20, () => true, (slot) => ({ process_start_time_seconds: 1000 + Math.floor(slot / 5) }));
    const alerts = await alertsRaised(promtool, ruleTestInput({ ruleFile: ALERT_RULES, intervalSeconds: 2, scrapes: starts }));
    expect(alerts).toEqual([
      { alertname: 'TailsyncRestartingOften', state: 'firing', labels: { instance: '127.0.0.1:3', job: 'tailsync-tail-sync', severity: 'ticket' }, firstSeconds: 30, lastSeconds: 38 },
    ]);
  });

  it('healthy scrapes raise nothing', async () => {
    const healthy = scrapesOf('tailsync-gateway', '127.0.0.1:2', 30, () => true, () => ({ process_start_time_seconds: 1000 }));
    expect(await alertsRaised(promtool, ruleTestInput({ ruleFile: ALERT_RULES, intervalSeconds: 2, scrapes: healthy }))).toEqual([]);
  });

  it('a failure that is not the alerts\' answer (a rule that does not evaluate, no rule file) is an error, not "no alerts"', async () => {
    const scrapes = scrapesOf('j', 'h:1', 3, () => true);
    const broken = join(mkdtempSync(join(tmpdir(), 'rules-')), 'broken.yml');
    // Loads, but fails at evaluation: a many-to-many match, since both series share no labels but their name.
    writeFileSync(broken, 'groups: [{name: g, rules: [{alert: Broken, expr: "up + on() up"}]}]\n');
    await expect(alertsRaised(promtool, ruleTestInput({ ruleFile: broken, intervalSeconds: 2, scrapes: [...scrapes, ...scrapesOf('j', 'h:2', 3, () => true)] }))).rejects.toThrow(
      /promtool test rules failed[^]*many-to-many/,
    );
    await expect(alertsRaised(promtool, ruleTestInput({ ruleFile: '/nonexistent/rules.yml', intervalSeconds: 2, scrapes }))).rejects.toThrow(/no rule file/);
  });
});
