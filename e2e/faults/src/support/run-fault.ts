/**
 * One fault, end to end: the steady load starts, runs 5 s, the fault is injected, held (30 s by
 * default), healed; the load runs 10 s more and stops; then the availability report (printed,
 * and kept in `.data/faults/report.json`, with the apps' WARN and ERROR lines and the alerts the
 * rules raised over the scrapes) and the invariants. The API must answer every call of
 * the load with 201 or a 503 problem within the request budget: anything else (a 500, another
 * status, a hang, a refused connection) is listed in `improperAnswers`.
 */
import { warningsBetween } from './app-log-lines';
import { type FaultMetrics, scrapeAppMetrics } from './app-metrics';
import { alertsDuring, alertsLine, type FaultAlert } from './fault-alerts';
import { type Availability, availabilityOf, keepInReport } from './availability';
import type { FaultStack } from './fault-stack';
import { checkInvariants, type InvariantsOutcome } from './invariants';
import { type LoadOptions, type Sample, startSteadyLoad } from './steady-load';
import { seconds } from './seconds';

export interface Fault {
  /** Names the fault in the report. */
  name: string;
  /** Breaks something; resolves with how to heal it (a no-op when it heals by itself). */
  inject(stack: FaultStack): Promise<() => Promise<void>>;
  /** From the injection to the heal; default 30 s. */
  holdMs?: number;
  load?: LoadOptions;
}

export interface FaultOutcome {
  availability: Availability;
  invariants: InvariantsOutcome;
  /** Calls the API answered with anything but 201 or a 503 problem, or did not answer in time. */
  improperAnswers: Sample[];
  /** The apps' WARN and ERROR lines from the fault to the end of the check, counted by message. */
  logLines: string[];
  /** What the apps' /metrics showed before, during and after the fault. */
  metrics: FaultMetrics;
  /** The alerts of deploy/prometheus/tailsync-alerts.yml pending or firing over those scrapes. */
  alerts: FaultAlert[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WARM_UP_MS = 5_000;
const AFTER_HEAL_MS = 10_000;

export async function runFault(stack: FaultStack, fault: Fault): Promise<FaultOutcome> {
  const begun = Date.now();
  const load = await startSteadyLoad(stack, fault.load);
  const loadReady = Date.now();
  const scraping = scrapeAppMetrics(stack);
  // Every process an app copy has had (a fault may restart one).
  const instances = new Map<string, string>();
  const noteInstances = () => stack.copies.forEach((c) => instances.set(c.process.instance, c.name));
  noteInstances();
  let record;
  let scraped;
  let faultAt = 0;
  let healedAt = 0;
  try {
    await sleep(WARM_UP_MS);
    faultAt = Date.now();
    const heal = await fault.inject(stack);
    await sleep(Math.max(0, faultAt + (fault.holdMs ?? 30_000) - Date.now()));
    await heal();
    healedAt = Date.now();
    await sleep(AFTER_HEAL_MS);
  } finally {
    [record, scraped] = await Promise.all([load.stop(), scraping.stop(faultAt, healedAt)]);
  }
  const { metrics, scrapes } = scraped;
  try {
    const availability = availabilityOf(record.samples, faultAt, healedAt);
    const checking = Date.now();
    // promtool's evaluation does not depend on the invariants: both at once.
    const [invariants, alerts] = await Promise.all([checkInvariants(stack, record), alertsDuring(scrapes, faultAt, healedAt)]);
    const checked = Date.now();
    const improperAnswers = record.samples.filter((s) => s.status !== 201 && !(s.status === 503 && s.problem));
    noteInstances();
    const copies = [...instances].map(([instance, app]) => ({ app, instance }));
    const logLines = warningsBetween(stack.logDir, copies, faultAt, Date.now());
    const outcome: FaultOutcome = { availability, invariants, improperAnswers, logLines, metrics, alerts };
    const events = record.events.length;
    const acked = record.events.filter((e) => e.ackedAt !== undefined).length;
    keepInReport(fault.name, {
      at: new Date(faultAt).toISOString(),
      heldMs: healedAt - faultAt,
      ...availability,
      events: { sent: events, acknowledged: acked, repeatedDeliveries: invariants.repeatedDeliveries, slowestDeliveryMs: invariants.slowestDeliveryMs },
      settledAfterHealMs: invariants.settledAfterMs + AFTER_HEAL_MS,
      improperAnswers: improperAnswers.length,
      violations: invariants.violations,
      logLines,
      alerts,
      metrics,
    });
    const status = (f: { byStatus: Record<string, number> }) => Object.entries(f.byStatus).map(([s, n]) => `${n}×${s}`).join(' ');
    console.log(
      [
        `[faults] ${fault.name} (held ${seconds(healedAt - faultAt)}):`,
        `  calls before ${status(availability.before)} p99 ${availability.before.p99Ms} ms; during ${status(availability.during)} p99 ${availability.during.p99Ms} ms max ${availability.during.maxMs} ms; after ${status(availability.after)} p99 ${availability.after.p99Ms} ms`,
        `  refused for ${seconds(availability.refusedForMs)}, slower (> ${availability.slowThresholdMs} ms) for ${seconds(availability.slowerForMs)}`,
        `  events ${acked}/${events} acknowledged, slowest delivery ${invariants.slowestDeliveryMs} ms, ${invariants.repeatedDeliveries} repeated; settled ${seconds(invariants.settledAfterMs + AFTER_HEAL_MS)} after the heal`,
        `  ${improperAnswers.length} improper answers, ${invariants.violations.length} violations${invariants.violations.length ? `: ${invariants.violations.join('; ')}` : ''}`,
        `  alerts (the rules over ${scrapes.targets.length} scrapes, ${scrapes.targets.filter((t) => !t.samples).length} failed, by promtool): ${alertsLine(alerts)}`,
        `  the apps logged (WARN and above, from the fault on):`,
        ...logLines.slice(0, 15).map((line) => `    ${line}`),
        `  the apps' metrics during the fault: ${Object.entries(metrics.during).map(([k, v]) => `${k} ${Math.round(v * 100) / 100}`).join(', ')}`,
        `  and after the heal: ${Object.entries(metrics.after).map(([k, v]) => `${k} ${Math.round(v * 100) / 100}`).join(', ')}`,
        ...(Object.keys(metrics.missedScrapes).length ? [`  scrapes missed: ${JSON.stringify(metrics.missedScrapes)}`] : []),
        `  its time: the load ready ${seconds(loadReady - begun)}, fault injected ${seconds(faultAt - loadReady)} later, healed ${seconds(healedAt - faultAt)} after it; load stopped ${seconds(checking - healedAt)} after the heal; invariants and alerts checked in ${seconds(checked - checking)}`,
      ].join('\n'),
    );
    return outcome;
  } finally {
    await Promise.all(record.subscribers.map((s) => s.receiver.close()));
  }
}
