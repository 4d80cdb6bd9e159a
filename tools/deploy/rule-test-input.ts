/**
 * Scrapes a test took of the apps' `/metrics`, as a `promtool test rules` file: the series as
 * Prometheus would have stored them (each labelled with its scrape job and instance, `up` per
 * target, a stale marker where a series or a failed scrape ends), and two expressions over the
 * `ALERTS` series the rules write while promtool evaluates them: when each alert was first and
 * last pending or firing. Nothing is expected of them, so promtool prints what it got
 * (promtool-alerts.ts reads that).
 */

/** One scrape of one target, at `slot` (its index at the scrape interval from the first scrape). */
export interface TargetScrape {
  /** The scrape job's name, `tailsync-gateway`. */
  job: string;
  /** `host:port`, as Prometheus labels a target. */
  instance: string;
  slot: number;
  /** `name{labels}` → value as the target exposed them; undefined when the scrape failed (`up` 0). */
  samples?: ReadonlyMap<string, number>;
}

export interface RuleTestInputOptions {
  /** The rule file promtool evaluates (an absolute path). */
  ruleFile: string;
  intervalSeconds: number;
  scrapes: readonly TargetScrape[];
}


export interface RuleTestFile {
  rule_files: string[];
  evaluation_interval: string;
  tests: {
    interval: string;
    input_series: { series: string; values: string }[];
    /** The first and the last time (seconds from the first scrape) each alert was pending or firing. */
    promql_expr_test: [AlertsSeen, AlertsSeen];
  }[];
}

interface AlertsSeen {
  expr: string;
  eval_time: string;
  exp_samples: [];
}

const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** `name{a="b"}` with the target's job and instance first; a target's own `job` or `instance` becomes `exported_…`, as Prometheus does. */
export function seriesName(key: string, job: string, instance: string): string {
  const brace = key.indexOf('{');
  const name = brace < 0 ? key : key.slice(0, brace);
  const own = brace < 0 ? [] : [...key.slice(brace).matchAll(LABEL)].map(([, label, value]) => `${['job', 'instance'].includes(label) ? `exported_${label}` : label}="${value}"`);
  return `${name}{${[`job="${job}"`, `instance="${instance}"`, ...own].join(', ')}}`;
}

/** A sample value as promtool's series notation writes it. */
function valueText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Over the whole run, at each evaluation: the earliest or latest timestamp of each `ALERTS` series (one per alert and state). */
const alertsSeen = (over: 'min' | 'max', end: number, step: number): AlertsSeen => ({
  expr: `${over}_over_time(timestamp(ALERTS)[${end}s:${step}s])`,
  eval_time: `${end}s`,
  exp_samples: [],
});

export function ruleTestInput({ ruleFile, intervalSeconds, scrapes }: RuleTestInputOptions): RuleTestFile {
  const lastSlot = Math.max(1, ...scrapes.map((s) => s.slot));
  const targets = new Map<string, Map<number, TargetScrape>>();
  for (const scrape of scrapes) {
    const key = JSON.stringify([scrape.job, scrape.instance]);
    if (!targets.has(key)) targets.set(key, new Map());
    targets.get(key)!.set(scrape.slot, scrape);
  }
  const slots = Array.from({ length: lastSlot + 1 }, (_, slot) => slot);
  const inputSeries: { series: string; values: string }[] = [];
  for (const [key, bySlot] of targets) {
    const [job, instance] = JSON.parse(key) as [string, string];
    const up = slots.map((slot) => (bySlot.has(slot) ? (bySlot.get(slot)!.samples ? '1' : '0') : '_'));
    inputSeries.push({ series: seriesName('up', job, instance), values: up.join(' ') });
    const names = new Set([...bySlot.values()].flatMap((s) => [...(s.samples?.keys() ?? [])]));
    for (const name of names) {
      let present = false;
      const values = slots.map((slot) => {
        const scrape = bySlot.get(slot);
        // No scrape at this slot: nothing was stored. A scrape without the series (or a failed one) ends it.
        if (!scrape) return '_';
        const value = scrape.samples?.get(name);
        if (value !== undefined) {
          present = true;
          return valueText(value);
        }
        const ended = present;
        present = false;
        return ended ? 'stale' : '_';
      });
      inputSeries.push({ series: seriesName(name, job, instance), values: values.join(' ') });
    }
  }
  const end = lastSlot * intervalSeconds;
  const interval = `${intervalSeconds}s`;
  return {
    rule_files: [ruleFile],
    evaluation_interval: interval,
    tests: [
      {
        interval,
        input_series: inputSeries,
        promql_expr_test: [alertsSeen('min', end, intervalSeconds), alertsSeen('max', end, intervalSeconds)],
      },
    ],
  };
}
