import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../stack/infrastructure';

export const ALERT_RULES = join(REPO_ROOT, 'deploy', 'prometheus', 'tailsync-alerts.yml');
export const ALERT_RULE_TESTS = join(REPO_ROOT, 'deploy', 'prometheus', 'tailsync-alerts.test.yml');
export const DASHBOARD = join(REPO_ROOT, 'deploy', 'grafana', 'tailsync-dashboard.json');

/** Series Prometheus makes itself, not any app: `up` of every scrape. */
export const PROMETHEUS_OWN = new Set(['up']);

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset']);
/** Suffixes of a histogram's or summary's series, which the exposition lists under the metric's name. */
const SERIES_SUFFIX = /_(bucket|count|sum)$/;

/**
 * The metric names a PromQL expression reads: what is left once label matchers, grouping labels,
 * ranges, strings and function calls are taken out. A histogram's `_bucket`/`_count`/`_sum`
 * series count as the histogram's name.
 */
export function metricNamesIn(expr: string): Set<string> {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1]) || /^\d/.test(m[1])) continue;
    names.add(m[1].replace(SERIES_SUFFIX, ''));
  }
  return names;
}

/** Every PromQL expression of the alert rules and the dashboard's panels. */
export function monitoringExpressions(): { source: string; expr: string }[] {
  const rules = parse(readFileSync(ALERT_RULES, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
  return [
    ...rules.groups.flatMap((g) => g.rules.map((r) => ({ source: `alert ${r.alert}`, expr: r.expr }))),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ source: `panel "${p.title}"`, expr: t.expr }))),
  ];
}

/** The metric names an exposition (`/metrics`) declares, from its `# TYPE` lines. */
export function exportedMetricNames(exposition: string): Set<string> {
  return new Set([...exposition.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
}
