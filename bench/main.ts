/**
 * `npm run bench [-- --only W1,W3] [--duration 10] [--gateways 2] [--dispatchers 2] [--profile]`
 *
 * Starts the stack the way `npm start` does (own ports, data under .data/bench, wiped each run) or
 * uses BASE_URL + KAFKA_BROKERS (+ DATABASE_URL, ADMIN_TOKEN); runs the workloads and the baselines
 * they are compared with; prints markdown tables and writes bench/results/<timestamp>.json and
 * bench/results/latest.json. See docs/performance.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tailsync/stack';
import { BenchContext, Row, target } from './support/context';
import { startCpuSampler } from './support/cpu';
import { costTable, cpuTable, notesList, profileReport, resultsTable } from './support/report';
import { profilesSince, ProfileSummary, summarizeProfile } from './support/profile';
import { BENCH_PORTS, BenchStack, startBenchStack } from './support/stack';
import type { Copies } from './support/app-copies';
import { runGrpcBaseline, runHttpBaseline, runKafkaBaseline, runPgBaseline, runReadFloorBaseline, runWriteFloorBaseline } from './workloads/baselines';
import { runW5 } from './workloads/projection-lag';
import { runVersionDiagnostic, runW1, runW2, runW3, warmUp } from './workloads/tails';
import { runW4L } from './workloads/filled-log';
import { runW8 } from './workloads/fifo';
import { runW4, runW7 } from './workloads/webhooks';
import { quietDatabase } from './support/quiet-database';

const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
const PROFILE_DIR = join(RESULTS_DIR, 'profiles');
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const USAGE = `usage: npm run bench -- [--only W1,W2,W3,W4,W4L,W5,W6,W7,W8,W9,B-http,B-read-floor,B-write-floor,B-grpc,B-pg,B-kafka,D-idle,D-version] [--duration <s>] [--warmup <s>] [--settle <s>] [--gateways <n>] [--dispatchers <n>] [--profile]
  --only       workloads to run (default: all); the baselines they are compared with run too
               (W4 includes W6, its paced run beside a receiver that never answers, and W9, beside a
               domain backfilling 7 days of a filled topic: naming W6 or W9 runs W4; W7 is W4
               with Ed25519 signatures, compared with W4; W8 is fifo throughput per domain; W4L, only
               run when named, is W4's burst with the delivery log empty and filled with
               BENCH_FILLED_LOG deliveries, default 10 million, alternating)
  --duration   seconds per HTTP workload and per paced run (default 10)
  --warmup     seconds of unmeasured PUT/GET traffic first, so the Kafka broker's JVM and the
               apps are warm (default 20; 0 = none)
  --settle     longest wait (s) before each measured window for other processes on the machine
               to use under 25 % CPU (default 10; 0 = do not wait)
  --gateways   copies of the gateway the bench's stack starts (1-4, default 1): the HTTP
               workloads spread their connections over them (connection i to copy i mod n, one
               latency histogram for all); copy i listens on the first copy's ports + 10 × i
  --dispatchers  copies of the webhook dispatcher (1-4, default 1): one consumer group, the
               gateways' gRPC target lists every copy; CPU per operation counts every copy
  --profile    start the apps under --cpu-prof and run only the slowest workload (the lowest
               share of its target in bench/results/latest.json, or the --only ones);
               profiles go to bench/results/profiles/
  env: BASE_URL + KAFKA_BROKERS (+ DATABASE_URL for W5 and B-pg, ADMIN_TOKEN) use a running stack;
       BENCH_GATEWAY_PORT (apps on it and the next two, gRPC on it + 51 and + 52, the gateway's
       /metrics on it + 100), BENCH_KAFKA_PORT, BENCH_POSTGRES_PORT move the bench's own stack
       (default ${BENCH_PORTS.gateway}-${BENCH_PORTS.gateway + 2}, ${BENCH_PORTS.kafka}, ${BENCH_PORTS.postgres})`;

/** `onlyWhenNamed`: not part of a full run (W4L fills ten million rows first), only of `--only`. */
type Step = { id: string; needs?: string[]; onlyWhenNamed?: true; run: (ctx: BenchContext) => Promise<Row | Row[]> };

/**
 * In run order. The gateway's rate-limit bookkeeping (@nestjs/throttler's in-memory storage) does
 * work for every request again when it expires, 60 s later, at a cost that grows with the number
 * of requests in that minute (docs/performance.md): so the busiest HTTP workloads (W1, W3 and
 * D-version at ~2,900 req/s) come last, where their expiry falls after the measurements, and the
 * warm-up's falls on the baselines and W4. The stack at rest is measured last (every workload's
 * CPU per operation is net of it).
 */
const STEPS: Step[] = [
  { id: 'B-http', run: runHttpBaseline },
  { id: 'B-read-floor', run: runReadFloorBaseline },
  { id: 'B-write-floor', run: runWriteFloorBaseline },
  { id: 'B-grpc', run: runGrpcBaseline },
  { id: 'B-pg', run: async (ctx) => [await runPgBaseline(ctx, 1), await runPgBaseline(ctx, 4)] },
  { id: 'B-kafka', run: runKafkaBaseline },
  { id: 'W4', needs: ['B-kafka'], run: runW4 },
  { id: 'W7', needs: ['W4'], run: runW7 },
  { id: 'W4L', onlyWhenNamed: true, run: runW4L },
  { id: 'W8', run: runW8 },
  { id: 'W5', run: runW5 },
  { id: 'W2', needs: ['B-pg'], run: async (ctx) => [await runW2(ctx, 1), await runW2(ctx, 4)] },
  { id: 'W1', needs: ['B-http', 'B-write-floor', 'D-version'], run: runW1 },
  { id: 'W3', needs: ['B-http', 'B-read-floor', 'B-grpc', 'D-version'], run: runW3 },
  { id: 'D-version', run: runVersionDiagnostic },
  // Last: the apps have finished earlier work (it waits for that) and the broker's JVM is warm.
  { id: 'D-idle', run: runIdle },
];

/** The stack at rest: what its processes cost with no traffic (Kafka consumers polling, timers). */
async function runIdle(ctx: BenchContext): Promise<Row> {
  const seconds = Math.min(5, ctx.durationS);
  // The stack may still be finishing earlier work (in-flight bulk calls, the relay, PostgreSQL's
  // autovacuum after the bulk loads): wait (at most 30 s) until every process is below 20 %.
  const stackGroups = ctx.stack.groups.filter((g) => g.name !== 'bench');
  for (let waited = 0; waited < 30; waited++) {
    const sampler = startCpuSampler(stackGroups, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    const { avg } = sampler.stop();
    if (Object.values(avg).every((v) => v < 20)) break;
  }
  ctx.log(`D-idle: ${seconds} s with no traffic`);
  const { cpu } = await ctx.measure('D-idle', () => new Promise((r) => setTimeout(r, seconds * 1000)));
  return { id: 'D-idle', title: 'The stack at rest (no traffic)', cpu };
}

/** Which step produced a row (W2x4 → W2). */
const stepOf = (rowId: string) => STEPS.find((s) => rowId === s.id || rowId.startsWith(`${s.id}x`) || rowId.startsWith(`${s.id}-`))?.id;

/** Workloads measured inside another step, against its paced p99 in the same run: naming one runs that step. */
const PART_OF: Record<string, string> = { W6: 'W4', W9: 'W4' };

function chooseSteps(only: string | undefined, profile: boolean): string[] {
  if (only) {
    const given = only.split(',').map((s) => s.trim()).filter(Boolean).map((w) => PART_OF[w.toUpperCase()] ?? w);
    const unknown = given.filter((w) => !STEPS.some((s) => s.id.toLowerCase() === w.toLowerCase()));
    if (unknown.length) throw new Error(`unknown workload(s) ${unknown.join(', ')}\n${USAGE}`);
    const wanted = given.map((w) => (STEPS.find((s) => s.id.toLowerCase() === w.toLowerCase()) as Step).id);
    const ids = new Set(wanted);
    if (!profile) {
      // The baselines they are compared with, and the stack at rest (their CPU per operation is net of it).
      for (const w of wanted) for (const n of STEPS.find((s) => s.id === w)?.needs ?? []) ids.add(n);
      ids.add('D-idle');
    }
    return STEPS.filter((s) => ids.has(s.id)).map((s) => s.id);
  }
  if (!profile) return STEPS.filter((s) => !s.onlyWhenNamed).map((s) => s.id);
  // The slowest workload: the lowest share of its target in the latest full run.
  const latest = join(RESULTS_DIR, 'latest.json');
  if (!existsSync(latest)) return ['W1'];
  const rows = (JSON.parse(readFileSync(latest, 'utf8')) as { rows: Row[] }).rows.filter((r) => r.target);
  rows.sort((a, b) => (a.target?.attainment ?? 1) - (b.target?.attainment ?? 1));
  return [stepOf(rows[0]?.id ?? 'W1') ?? 'W1'];
}

/** Ratios to the baselines, and W3's target (a share of the bare-Node baseline). */
function compare(rows: Row[]): Row[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const throughputVs = (id: string, base: string) => {
    const r = byId.get(id);
    const b = byId.get(base);
    if (r?.throughput && b?.throughput && b.throughput.value > 0) {
      r.baseline = { id: base, ratio: Math.round((r.throughput.value / b.throughput.value) * 1000) / 1000, basis: 'throughput' };
    }
  };
  const p99Vs = (id: string, base: string) => {
    const r = byId.get(id);
    const b = byId.get(base);
    if (r?.latencyMs && b?.latencyMs && b.latencyMs.p99 > 0) {
      r.baseline = { id: base, ratio: Math.round((r.latencyMs.p99 / b.latencyMs.p99) * 10) / 10, basis: 'p99' };
    }
  };
  // W5's floor: one poll of the read model when the row is there (measured inside W5).
  const w5 = byId.get('W5');
  const rtt = w5?.details?.pollQueryRttMs as { p50: number; p99: number } | undefined;
  if (w5 && rtt) {
    const row: Row = { id: 'B-pg-query', title: 'Raw pg: the read-model poll query alone (row present)', latencyMs: { p50: rtt.p50, p99: rtt.p99, what: 'query round trip' } };
    rows.splice(rows.indexOf(w5) + 1, 0, row);
    byId.set(row.id, row);
  }
  throughputVs('W1', 'B-http');
  throughputVs('W3', 'B-http');
  throughputVs('W2x1', 'B-pgx1');
  throughputVs('W2x4', 'B-pgx4');
  throughputVs('W4-burst', 'B-kafka-burst');
  p99Vs('W4-paced', 'B-kafka-paced');
  p99Vs('W6', 'W4-paced');
  p99Vs('W9', 'W4-paced');
  // The Ed25519 pair: W7 against W4 (HMAC), the same events and receiver.
  throughputVs('W7-burst', 'W4-burst');
  p99Vs('W7-paced', 'W4-paced');
  p99Vs('W5', 'B-pg-query');
  const idle = byId.get('D-idle')?.cpu;
  const STACK = ['gateway', 'tail-sync', 'dispatcher', 'kafka', 'postgres'];
  // The baselines whose CPU is measured as the stack's is: their own server's group and PostgreSQL.
  const COSTED_BASELINES: Record<string, string[]> = { 'B-read-floor': ['read-floor', 'postgres'], 'B-write-floor': ['write-floor', 'postgres'], 'B-grpc': ['grpc-floor'] };
  for (const r of rows) {
    const costedAs = COSTED_BASELINES[r.id] ?? (r.id.startsWith('B-') ? undefined : STACK);
    if (!r.cpu || !r.throughput || r.throughput.value <= 0 || !costedAs) continue;
    const msPerOp: Record<string, number> = {};
    let total = 0;
    for (const name of costedAs) {
      if (r.cpu.avg[name] === undefined) continue;
      const net = Math.max(0, r.cpu.avg[name] - (idle?.avg[name] ?? 0));
      msPerOp[name] = Math.round((net * 10 * 1000) / r.throughput.value) / 1000; // % → ms per s, / ops per s
      total += msPerOp[name];
    }
    if (total > 0) {
      r.cost = { msPerOp, totalMsPerOp: Math.round(total * 1000) / 1000, cpuBoundCeiling: Math.round((r.cpu.machine.capacity * 10) / total) };
    }
  }
  const ceilingShare = (id: string, base: string): number | undefined => {
    const r = byId.get(id);
    const ceiling = r?.cost?.cpuBoundCeiling;
    const baseCeiling = byId.get(base)?.cost?.cpuBoundCeiling;
    if (!r || !ceiling || !baseCeiling) return undefined;
    const share = Math.round((ceiling / baseCeiling) * 1000) / 1000;
    r.ceilingShares = { ...r.ceilingShares, [base]: share };
    return share;
  };
  // The request path's targets, as ratios of CPU-bound ceilings (docs/performance.md).
  const w3 = byId.get('W3');
  const w3ToVersion = ceilingShare('W3', 'D-version');
  const w3ToFloor = ceilingShare('W3', 'B-read-floor');
  if (w3?.latencyMs && w3ToVersion !== undefined && w3ToFloor !== undefined) {
    w3.target = target('ceiling ≥ 25 % of D-version\'s and ≥ 50 % of B-read-floor\'s; p99 ≤ 3 × p50', {
      mins: [
        [w3ToVersion, 0.25],
        [w3ToFloor, 0.5],
      ],
      maxP99: [w3.latencyMs.p99, 3 * w3.latencyMs.p50],
    });
  }
  const w1 = byId.get('W1');
  const w1ToVersion = ceilingShare('W1', 'D-version');
  if (w1 && w1ToVersion !== undefined) w1.target = target('ceiling ≥ 20 % of D-version\'s', { min: [w1ToVersion, 0.2] });
  // Printed beside it, with no target: what a create costs against the floor of a create's work.
  ceilingShare('W1', 'B-write-floor');
  return rows;
}

function copiesOf(flag: string, value: string | undefined): number {
  const n = Number(value);
  // Four at most: a fifth dispatcher's gRPC port (the gateway's + 52 + 40) would be the default broker's.
  if (!Number.isInteger(n) || n < 1 || n > 4) throw new Error(`${flag} must be a whole number of copies from 1 to 4\n${USAGE}`);
  return n;
}

const copiesText = (copies: Copies) =>
  `${copies.gateway} gateway${copies.gateway > 1 ? 's' : ''}, 1 tail-sync, ${copies['webhook-dispatcher']} dispatcher${copies['webhook-dispatcher'] > 1 ? 's' : ''}`;

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      profile: { type: 'boolean', default: false },
      settle: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '20' },
      gateways: { type: 'string', default: '1' },
      dispatchers: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const durationS = Number(values.duration);
  if (!Number.isFinite(durationS) || durationS < 1) throw new Error(`--duration must be a number of seconds ≥ 1\n${USAGE}`);
  const copies: Copies = { gateway: copiesOf('--gateways', values.gateways), 'webhook-dispatcher': copiesOf('--dispatchers', values.dispatchers) };
  const profile = values.profile === true;
  const steps = chooseSteps(values.only, profile);

  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const load0 = loadavg();
  log(`workloads: ${steps.join(', ')}; ${durationS} s each${profile ? `; apps under --cpu-prof (${PROFILE_DIR})` : ''}`);
  const stack: BenchStack = await startBenchStack({ log, copies, profileDir: profile ? PROFILE_DIR : undefined });
  log(`stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${stack.mode}: ${stack.baseUrl})`);
  const ctx = new BenchContext(stack, durationS, log, Number(values.settle));
  const rows: Row[] = [];
  const warmupS = Number(values.warmup);
  const profiles: Record<string, ProfileSummary[]> = {};
  try {
    if (steps.some((id) => id.startsWith('W') || id === 'D-version')) await warmUp(ctx, warmupS);
    for (const id of steps) {
      const step = STEPS.find((s) => s.id === id) as Step;
      const quietS = await quietDatabase(stack.databaseUrl).catch((error: Error) => {
        log(`vacuum and checkpoint failed: ${error.message}`);
        return 0;
      });
      if (quietS > 0) log(`database vacuumed and checkpointed in ${quietS.toFixed(1)} s`);
      const stepStart = Date.now();
      try {
        const out = await step.run(ctx);
        rows.push(...(Array.isArray(out) ? out : [out]));
      } catch (error) {
        log(`${id} failed: ${(error as Error).stack ?? error}`);
        rows.push({ id, title: `${id} did not complete`, notes: [`failed: ${(error as Error).message}`] });
      }
      log(`${id} done in ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
    }
  } finally {
    log('stopping the stack');
    await stack.stop();
  }
  if (profile) {
    const files = profilesSince(PROFILE_DIR, started);
    if (files.length === 0) log(`no profiles were written to ${PROFILE_DIR}`);
    // One summary per measured window (workload) and process.
    for (const w of ctx.windows) profiles[w.id] = files.map((f) => summarizeProfile(f, [w]));
  }

  compare(rows);
  // Shown workloads first, then the baselines and diagnostics (the windows keep the run order).
  const ORDER = ['W1', 'W2x1', 'W2x4', 'W3', 'B-write-floor', 'B-read-floor', 'B-grpc', 'D-version', 'W4-burst', 'W4-paced', 'W6', 'W9', 'W5', 'B-pg-query', 'B-http', 'B-pgx1', 'B-pgx4', 'B-kafka-burst', 'B-kafka-paced', 'D-idle'];
  const rank = (id: string) => (ORDER.indexOf(id) < 0 ? ORDER.length : ORDER.indexOf(id));
  rows.sort((a, b) => rank(a.id) - rank(b.id));
  const elapsedS = Math.round((Date.now() - started) / 100) / 10;
  const cpuInfo = cpus();
  const result = {
    startedAt,
    elapsedS,
    args: { only: values.only ?? null, durationS, warmupS: Number(values.warmup), settleS: Number(values.settle), profile, copies },
    machine: {
      cpus: cpuInfo.length,
      cpuModel: cpuInfo[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      loadAverageBefore: load0.map((v) => Math.round(v * 100) / 100),
      loadAverageAfter: loadavg().map((v) => Math.round(v * 100) / 100),
      platform: `${process.platform} ${process.arch}`,
    },
    node: process.version,
    kafkaVersion: stack.kafkaVersion,
    postgresVersion: stack.postgresVersion,
    stack: { mode: stack.mode, baseUrl: stack.baseUrl },
    rows,
    windows: ctx.windows,
    ...(profile ? { profiles } : {}),
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.replace(/[:.]/g, '-');
  const file = join(RESULTS_DIR, `${stamp}${profile ? '-profile' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  if (!profile && !values.only) writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);

  const out: string[] = [];
  out.push(
    `## tailsync benchmark, ${startedAt}`,
    '',
    `${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGiB} GiB; Node ${process.version}; ` +
      `Kafka ${stack.kafkaVersion}; PostgreSQL ${stack.postgresVersion}; stack: ${stack.mode}; ` +
      `${copiesText(copies)}; load average before ${result.machine.loadAverageBefore.join(' ')}, after ${result.machine.loadAverageAfter.join(' ')}; ` +
      `${durationS} s per workload; run took ${elapsedS} s.`,
    '',
    resultsTable(rows),
    '',
    'CPU per process during each measured window (average %, 1-s peak in brackets; 100 % = one core):',
    '',
    cpuTable(rows),
  );
  const costs = costTable(rows);
  if (costs) {
    out.push('', 'CPU per operation, net of the stack at rest (D-idle), and the throughput it allows with every core working for the stack:', '', costs);
  }
  const notes = notesList(rows);
  if (notes) out.push('', 'Notes:', '', notes);
  if (profile) {
    for (const [id, summaries] of Object.entries(profiles)) {
      out.push('', `### CPU profile of ${id} (samples inside its measured window only; the profiler slows the apps)`, '', profileReport(summaries));
    }
  }
  out.push('', `Results: ${file}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
