import { Counter } from 'prom-client';
import { metricsRegistry } from '../observability/metrics';
import { ReadinessCheck, withTimeout } from './readiness-check';

const runs = new Counter({ name: 'tailsync_readiness_check_runs_total', help: 'Rounds of dependency checks run for /health/ready (at most one a second).', registers: [metricsRegistry] });

/** The readiness of every dependency, in the shape Terminus used (`info` up, `error` down, `details` both). */
export interface ReadinessResult {
  status: 'ok' | 'error';
  info: Record<string, { status: 'up' }>;
  error: Record<string, { status: 'down'; message: string }>;
  details: Record<string, { status: 'up' } | { status: 'down'; message: string }>;
}

/** Kept this long after a run ends: a probe storm costs one round of checks a second, not one per hit. */
export const READINESS_MAX_AGE_MS = 1_000;
const CHECK_TIMEOUT_MS = 3_000;

/** Runs the checks at most once per READINESS_MAX_AGE_MS; hits while they run share that run. */
export class ReadinessReport {
  private running?: Promise<ReadinessResult>;
  private last?: { endedAt: number; result: ReadinessResult };

  constructor(private readonly checks: ReadinessCheck[]) {}

  current(): Promise<ReadinessResult> {
    if (this.running) return this.running;
    if (this.last && Date.now() - this.last.endedAt < READINESS_MAX_AGE_MS) return Promise.resolve(this.last.result);
    this.running = this.run().then((result) => {
      this.last = { endedAt: Date.now(), result };
      this.running = undefined;
      return result;
    });
    return this.running;
  }

  private async run(): Promise<ReadinessResult> {
    runs.inc();
    const result: ReadinessResult = { status: 'ok', info: {}, error: {}, details: {} };
    await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), CHECK_TIMEOUT_MS, c.name);
          result.info[c.name] = result.details[c.name] = { status: 'up' };
        } catch (error) {
          result.error[c.name] = result.details[c.name] = { status: 'down', message: error instanceof Error ? error.message : String(error) };
          result.status = 'error';
        }
      }),
    );
    return result;
  }
}
