/**
 * The alerts an operator's Prometheus would have raised during a fault: the real rule file
 * (`deploy/prometheus/tailsync-alerts.yml`) evaluated by promtool over the suite's own scrapes,
 * with each alert's times told from the fault and from the heal.
 */
import { ALERT_RULES, alertsRaised, builtTool, ruleTestInput, TOOL_BUILD_TIMEOUT_MS } from '@tailsync/tools/testing';
import type { Scrapes } from './app-metrics';

export interface FaultAlert {
  alert: string;
  state: 'pending' | 'firing';
  /** The target or group it is about: `job instance`, or its other labels. */
  about: string;
  /** Seconds from the fault's injection to the first and the last evaluation in this state (negative: before the fault). */
  fromFaultS: number;
  toFaultS: number;
  /** Seconds from the heal to the last evaluation in this state (negative: it ended before the heal). */
  toHealS: number;
}

/**
 * A file that runs faults waits for promtool's build in a hook of its own (`beforeAll(...PROMTOOL_BUILT)`),
 * before its stack starts, rather than inside a fault's time limit; a build that failed fails its
 * tests with the build's report.
 */
export const PROMTOOL_BUILT = [() => builtTool('promtool').then(() => undefined), TOOL_BUILD_TIMEOUT_MS] as const;

/**
 * The alerts that fired, as `name (about)`: what a fault's test compares with what
 * docs/operations.md says an operator sees (none, for faults of 30 s: the shortest `for:` is 2
 * minutes, and the rules without one count restarts and malformed events, which no fault makes).
 */
export const firing = (alerts: FaultAlert[]) => inState(alerts, 'firing');

/** The alerts in `state`, as `name (about)`. */
export const inState = (alerts: FaultAlert[], state: FaultAlert['state']) => alerts.filter((a) => a.state === state).map(named);

const named = (a: FaultAlert) => (a.about ? `${a.alert} (${a.about})` : a.alert);

/** The copies TailsyncInstanceDown had pending or firing: those whose scrapes failed. A copy the fault did not stop must not be among them. */
export const readAsDown = (alerts: FaultAlert[]) => alerts.filter((a) => a.alert === 'TailsyncInstanceDown').map((a) => `${a.about} (${a.state})`);

export async function alertsDuring(scrapes: Scrapes, faultAt: number, healedAt: number): Promise<FaultAlert[]> {
  const promtool = await builtTool('promtool');
  const interval = scrapes.intervalMs / 1000;
  const raised = await alertsRaised(promtool, ruleTestInput({ ruleFile: ALERT_RULES, intervalSeconds: interval, scrapes: scrapes.targets }));
  const at = (seconds: number) => scrapes.startedAt + seconds * 1000;
  const round = (ms: number) => Math.round(ms / 100) / 10;
  return raised.map(({ alertname, state, labels, firstSeconds, lastSeconds }) => {
    const { severity: _severity, job, instance, ...rest } = labels;
    const about = [job, instance, ...Object.entries(rest).map(([k, v]) => `${k}=${v}`)].filter(Boolean).join(' ');
    return { alert: alertname, state, about, fromFaultS: round(at(firstSeconds) - faultAt), toFaultS: round(at(lastSeconds) - faultAt), toHealS: round(at(lastSeconds) - healedAt) };
  });
}

/** `TailsyncInstanceDown (tailsync-gateway 127.0.0.1:24010) pending from fault +4 s to heal +2 s`, or "none". */
export function alertsLine(alerts: FaultAlert[]): string {
  if (!alerts.length) return 'none pending or firing';
  const sign = (s: number) => `${s < 0 ? '−' : '+'}${Math.abs(s)} s`;
  return alerts.map((a) => `${named(a)} ${a.state} from fault ${sign(a.fromFaultS)} to heal ${sign(a.toHealS)}`).join('; ');
}
