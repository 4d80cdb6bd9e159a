/**
 * What an operator's Prometheus sees during a fault: every app copy's `/metrics` scraped every 2 s
 * from the load's start to its end, and per phase (before the fault, during it, after the heal)
 * the worst of each gauge and the increase of each counter, over every copy. The scrapes
 * themselves are kept for the alert rules (fault-alerts.ts).
 */
import type { AppName } from '@tailsync/stack';
import type { TargetScrape } from '@tailsync/tools/testing';
import { type FaultStack, FAULT_PORTS } from './fault-stack';

/** The series kept, by what they show (names as the apps export them). */
const GAUGES = {
  /** The dispatcher's webhook consumer group's lag, summed over its partitions (each copy reports the group's). */
  consumerLag: 'kafka_consumer_group_lag',
  /** Age of the newest tail event the relay published when it published it. */
  relayLagSeconds: 'tailsync_tail_events_relay_lag_seconds',
  webhookRetryQueue: 'webhook_retry_queue_depth',
} as const;
const COUNTERS = {
  tailEventsPublished: 'tailsync_tail_events_published_total',
  webhookEventsConsumed: 'webhook_events_consumed_total',
  /** By outcome: delivered, failed, retry-scheduled. */
  webhookDeliveries: 'webhook_deliveries_total',
  /** ERROR lines of the kafkajs clients, by namespace. */
  kafkaClientErrors: 'kafka_client_errors_total',
} as const;

/** One scrape of one copy: `name{labels}` → value. */
type Scrape = Map<string, number>;
export type PhaseMetrics = Record<string, number>;
export interface FaultMetrics {
  before: PhaseMetrics;
  during: PhaseMetrics;
  after: PhaseMetrics;
  /** Scrapes that got no answer (a copy down or cut off), by copy. */
  missedScrapes: Record<string, number>;
}

/** The scrape target of a copy, as Prometheus labels it (`instance`). */
const targetOf = (name: AppName, index: number) => `127.0.0.1:${(name === 'gateway' ? FAULT_PORTS.management : FAULT_PORTS[name]) + 10 * index}`;

function parse(text: string): Scrape {
  const samples: Scrape = new Map();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match) samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

/** The series of `name`, keyed by the label that tells them apart (outcome, namespace), summed over the others. */
function series(scrape: Scrape, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of scrape) {
    if (key !== name && !key.startsWith(`${name}{`)) continue;
    const label = /(?:outcome|namespace)="([^"]*)"/.exec(key)?.[1];
    const at = label ? `${name}{${label}}` : name;
    out.set(at, (out.get(at) ?? 0) + value);
  }
  return out;
}

interface Sample {
  at: number;
  copy: string;
  scrape: Scrape;
}

/** Every scrape of every copy, at its slot of the scrape interval from `startedAt`. */
export interface Scrapes {
  startedAt: number;
  intervalMs: number;
  targets: TargetScrape[];
}

/** Starts scraping every copy of `stack`; `stop(faultAt, healedAt)` ends it and sums up the phases. */
export function scrapeAppMetrics(stack: FaultStack, everyMs = 2_000) {
  const samples: Sample[] = [];
  const targets: TargetScrape[] = [];
  const missed: Record<string, number> = {};
  let stopped = false;
  const startedAt = Date.now();
  const scrapeAll = (slot: number) =>
    Promise.all(
      stack.copies.map(async (copy) => {
        const label = `${copy.name}-${copy.index + 1}`;
        const target = { job: `tailsync-${copy.name}`, instance: targetOf(copy.name, copy.index), slot };
        try {
          // Within the interval, as a Prometheus scrape_timeout must be.
          const response = await fetch(`http://${target.instance}/metrics`, { signal: AbortSignal.timeout(everyMs * 0.75) });
          const scrape = parse(await response.text());
          samples.push({ at: Date.now(), copy: label, scrape });
          targets.push({ ...target, samples: scrape });
        } catch {
          missed[label] = (missed[label] ?? 0) + 1;
          targets.push(target);
        }
      }),
    );
  // At a fixed rate, as Prometheus scrapes: a slow scrape does not shift the ones after it.
  const loop = (async () => {
    for (let slot = 0; !stopped; slot++) {
      await new Promise((r) => setTimeout(r, Math.max(0, startedAt + slot * everyMs - Date.now())));
      if (startedAt + (slot + 1) * everyMs < Date.now()) continue; // this slot's time has passed: skipped, as Prometheus does
      await scrapeAll(slot);
    }
  })();

  const phase = (from: number, to: number): PhaseMetrics => {
    const inPhase = samples.filter((s) => s.at >= from && s.at < to);
    const out: PhaseMetrics = {};
    for (const name of Object.values(GAUGES)) {
      for (const s of inPhase) for (const [key, value] of series(s.scrape, name)) out[`max ${key}`] = Math.max(out[`max ${key}`] ?? 0, value);
    }
    // A counter's increase per copy (first to last scrape in the phase; a restarted copy counts from its restart), summed.
    for (const name of Object.values(COUNTERS)) {
      for (const copy of new Set(inPhase.map((s) => s.copy))) {
        const ofCopy = inPhase.filter((s) => s.copy === copy);
        const first = series(ofCopy[0].scrape, name);
        for (const [key, last] of series(ofCopy[ofCopy.length - 1].scrape, name)) {
          const increase = last >= (first.get(key) ?? 0) ? last - (first.get(key) ?? 0) : last;
          out[`increase ${key}`] = (out[`increase ${key}`] ?? 0) + increase;
        }
      }
    }
    return out;
  };

  return {
    async stop(faultAt: number, healedAt: number): Promise<{ metrics: FaultMetrics; scrapes: Scrapes }> {
      stopped = true;
      await loop;
      return {
        metrics: { before: phase(0, faultAt), during: phase(faultAt, healedAt), after: phase(healedAt, Number.MAX_SAFE_INTEGER), missedScrapes: missed },
        scrapes: { startedAt, intervalMs: everyMs, targets },
      };
    },
  };
}
