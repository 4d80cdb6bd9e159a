/**
 * Which alerts Prometheus's own rule engine raises over a set of scrapes: `promtool test rules`
 * evaluates the rule file over them (rule-test-input.ts) and, since the test expects nothing of
 * the `ALERTS` series, prints what it got; that is read back here. promtool has no other way to
 * evaluate rules offline.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RuleTestFile } from './rule-test-input';

export interface SeenAlert {
  alertname: string;
  state: 'pending' | 'firing';
  /** The alert's other labels (the series' job, instance, …, and the rule's severity). */
  labels: Record<string, string>;
  /** Seconds from the first scrape: the first and the last evaluation the alert was in this state. */
  firstSeconds: number;
  lastSeconds: number;
}

const GOT = /expr: "((?:[^"\\]|\\.)*)", time: [^\n]*\n\s*exp: [^\n]*\n\s*got: ([^\n]*)/g;
const SAMPLE = /\{((?:[^{}"]|"(?:[^"\\]|\\.)*")*)\} ([^\s,]+)/g;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** The alerts in promtool's answer to `input` (ruleTestInput); throws on any other failure (a rule's error, a bad input). */
function seenAlertsIn(output: string, status: number | null, input: RuleTestFile): SeenAlert[] {
  if (status === 0) return [];
  const answers = new Map<string, Map<string, number>>();
  for (const [, expr, got] of output.matchAll(GOT)) {
    const samples = new Map<string, number>();
    if (got !== 'nil') for (const [, labels, value] of got.matchAll(SAMPLE)) samples.set(labels, Number(value));
    answers.set(expr.replace(/\\"/g, '"'), samples);
  }
  const [first, last] = input.tests[0].promql_expr_test.map(({ expr }) => answers.get(expr));
  if (status !== 1 || !first || !last) throw new Error(`promtool test rules failed (status ${status}):\n${output}`);
  return [...first].map(([text, firstSeconds]) => {
    const labels = Object.fromEntries([...text.matchAll(LABEL)].map(([, name, value]) => [name, value]));
    const { alertname, alertstate, ...rest } = labels;
    return { alertname, state: alertstate as SeenAlert['state'], labels: rest, firstSeconds, lastSeconds: last.get(text) ?? firstSeconds };
  });
}

/** Runs `promtool test rules` over `input`; the alerts that were pending or firing, in the order they started. */
export async function alertsRaised(promtool: string, input: RuleTestFile): Promise<SeenAlert[]> {
  // promtool reads a rule file that is not there as no rules, and so no alerts.
  const missing = input.rule_files.filter((file) => !existsSync(file));
  if (missing.length) throw new Error(`no rule file ${missing.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'tailsync-rules-'));
  try {
    const file = join(dir, 'scraped.test.yml');
    writeFileSync(file, stringify(input, { lineWidth: 0 }));
    const { output, status } = await new Promise<{ output: string; status: number | null }>((resolve, reject) => {
      const child = spawn(promtool, ['test', 'rules', file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ output, status }));
    });
    return seenAlertsIn(output, status, input).sort((a, b) => a.firstSeconds - b.firstSeconds || a.alertname.localeCompare(b.alertname));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
