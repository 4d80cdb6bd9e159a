/** Typed access to autocannon 8's programmatic API (the package ships no type declarations). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannonModule = require('autocannon') as (opts: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => unknown;

export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined;
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
}

export interface AutocannonOptions {
  /** Several URLs: connection i goes to url[i % n], and one histogram covers them all. */
  url: string | string[];
  connections?: number;
  duration?: number;
  amount?: number;
  pipelining?: number;
  timeout?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}

export interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  p99_9: number;
}

export interface AutocannonResult {
  latency: Histogram;
  requests: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  duration: number;
  start: Date;
  finish: Date;
  statusCodeStats: Record<string, { count: number }>;
}

export function autocannon(opts: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannonModule({ timeout: 30, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** What the report keeps of one autocannon run. */
export interface HttpFigures {
  connections: number;
  durationS: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  reqPerSec: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
}

export function httpFigures(r: AutocannonResult, connections: number): HttpFigures {
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const total = Object.values(statusCodes).reduce((s, n) => s + n, 0);
  const ok = Object.entries(statusCodes).reduce((s, [k, n]) => (k.startsWith('2') ? s + n : s), 0);
  return {
    connections,
    durationS: r.duration,
    requests: total,
    ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    reqPerSec: Math.round(ok / r.duration),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: Math.round(r.latency.mean * 100) / 100 },
  };
}
