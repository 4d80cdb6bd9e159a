/** What every workload gets, and what it reports. */
import type { CpuFigures } from './cpu';
import { startCpuSampler } from './cpu';
import type { BenchStack } from './stack';
import { nowMs } from './stats';

export interface Target {
  /** Human-readable, e.g. "≥ 1,000 req/s, p99 ≤ 100 ms". */
  text: string;
  met: boolean;
  /** Worst of measured/target over the target's terms (1 = just met, < 1 = missed). */
  attainment: number;
}

export interface Row {
  /** W1, W2x1, …, B-http, … */
  id: string;
  title: string;
  throughput?: { value: number; unit: string };
  latencyMs?: { p50: number; p99: number; what: string };
  /** The baseline row this one is compared with, and the ratio (throughput: this/baseline; latency: this/baseline p99). */
  baseline?: { id: string; ratio: number; basis: 'throughput' | 'p99' };
  target?: Target;
  cpu?: CpuFigures;
  /**
   * CPU the stack's processes spent per unit of throughput (per request, tail, delivery), net of
   * what they use at rest (D-idle), and the throughput those costs allow when every core of the
   * machine works for the stack: a bound that holds however busy the machine was during the run.
   */
  cost?: { msPerOp: Record<string, number>; totalMsPerOp: number; cpuBoundCeiling: number };
  /** This row's CPU-bound ceiling as a share of other rows' (by id): a ratio a busy machine does not move. */
  ceilingShares?: Record<string, number>;
  /** Errors, non-2xx, partial deliveries: anything that makes the figure suspect. */
  notes?: string[];
  details?: Record<string, unknown>;
}

export interface Window {
  id: string;
  /** Monotonic ms (process.hrtime), the clock V8 stamps CPU profile samples with. */
  start: number;
  end: number;
  /** Seconds waited before the window for other processes on the machine to calm down, and their CPU % then. */
  settledS: number;
  otherBefore: number;
}

/** Other processes' CPU (% of one core) under which a window may start. */
const QUIET_OTHER_CPU = 25;

export class BenchContext {
  readonly windows: Window[] = [];

  constructor(
    readonly stack: BenchStack,
    readonly durationS: number,
    readonly log: (line: string) => void,
    /** Longest wait, before each window, for other processes' CPU to drop (a shared machine). */
    readonly settleS = 10,
  ) {}

  /** Runs `fn` with the CPU of every process sampled, and remembers the window (for the profile). */
  async measure<T>(id: string, fn: () => Promise<T>): Promise<{ result: T; cpu: CpuFigures }> {
    const { waitedS, other } = await this.settle();
    if (waitedS >= this.settleS && this.settleS > 0) this.log(`${id}: other processes still use ${other} % CPU after ${waitedS} s; measuring anyway`);
    const sampler = startCpuSampler(this.stack.groups);
    const start = nowMs();
    try {
      const result = await fn();
      return { result, cpu: sampler.stop() };
    } finally {
      this.windows.push({ id, start, end: nowMs(), settledS: waitedS, otherBefore: other });
    }
  }

  /** Waits (1-s samples, at most `settleS`) until processes outside the stack and the bench use little CPU. */
  private async settle(): Promise<{ waitedS: number; other: number }> {
    const started = Date.now();
    let other = 0;
    for (;;) {
      const sampler = startCpuSampler(this.stack.groups, 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      other = sampler.stop().other;
      const waitedS = Math.round((Date.now() - started) / 100) / 10;
      if (other <= QUIET_OTHER_CPU || waitedS >= this.settleS) return { waitedS, other };
    }
  }
}

/** A throughput target (≥) and optionally a latency one (p99 ≤). */
export function target(text: string, terms: { min?: [number, number]; mins?: [number, number][]; maxP99?: [number, number] }): Target {
  const parts: number[] = [];
  for (const [measured, bound] of [...(terms.min ? [terms.min] : []), ...(terms.mins ?? [])]) parts.push(measured / bound);
  if (terms.maxP99) parts.push(terms.maxP99[0] > 0 ? terms.maxP99[1] / terms.maxP99[0] : Infinity);
  const attainment = Math.min(...parts.map((p) => (Number.isNaN(p) ? 0 : Math.min(p, 99))));
  return { text, met: attainment >= 1, attainment: Math.round(attainment * 100) / 100 };
}
