/**
 * W1 (single PUT /Tails creating new tails), W2 (PUT /Tails/Bulk, 1,000 new tails per call),
 * W3 (GET /Tails/{mappedId} on existing tails): autocannon against the gateway.
 */
import { type Account, benchDomain, call, jsonHeaders, newAccount } from '../support/api';
import { autocannon, AutocannonRequest, httpFigures } from '../support/autocannon';
import { BenchContext, Row, target } from '../support/context';

const WARMUP_S = 2;

/** How a workload's connections are spread: over every gateway copy, one histogram for all. */
const connectionsText = (ctx: BenchContext, connections: number) => {
  const gateways = ctx.stack.gatewayUrls.length;
  return gateways > 1 ? `${connections} conn. over ${gateways} gateways` : `${connections} conn.`;
};

/** A tail as integrators submit it (a few optional properties set). */
export const tailBody = (mappedId: string, tailNumber: string) => ({
  tailId: mappedId,
  tailNumber,
  registrationNumber: tailNumber,
  icaoTypeName: 'B738',
  vendorTypeName: 'Boeing 737-800',
  countryCode: 'US',
  passengerSeating: 162,
});

/** Unique Mapped IDs and tail numbers (≤ 20 characters) per request, from a counter per prefix. */
function uniqueTails(prefix: string) {
  let n = 0;
  return (count: number) =>
    Array.from({ length: count }, () => {
      const i = (n++).toString(36);
      return tailBody(`${prefix}-${i}`, `${prefix}${i}`.toUpperCase().slice(0, 20));
    });
}

export const W1_CONNECTIONS = 32;

/** W1's requests: `PUT /Tails`, a new tail each (B-write-floor sends the same). */
export function createRequests(prefix: string): AutocannonRequest[] {
  const next = uniqueTails(prefix);
  return [{ method: 'PUT', path: '/Tails', setupRequest: (req) => ({ ...req, body: JSON.stringify(next(1)[0]) }) }];
}

export async function runW1(ctx: BenchContext): Promise<Row> {
  const { baseUrl, adminToken } = ctx.stack;
  const account = await newAccount(baseUrl, adminToken, benchDomain('w1'));
  const connections = W1_CONNECTIONS;
  const opts = { url: ctx.stack.gatewayUrls, connections, headers: jsonHeaders(account.token), requests: createRequests('w1') };
  ctx.log(`W1: warm-up ${WARMUP_S} s, then ${ctx.durationS} s of PUT /Tails with ${connections} connections`);
  await autocannon({ ...opts, duration: WARMUP_S });
  const { result, cpu } = await ctx.measure('W1', () => autocannon({ ...opts, duration: ctx.durationS }));
  const f = httpFigures(result, connections);
  const notes: string[] = [];
  if ((f.statusCodes['201'] ?? 0) !== f.requests) notes.push(`status codes ${JSON.stringify(f.statusCodes)} (all should be 201)`);
  if (f.errors || f.timeouts) notes.push(`${f.errors} errors, ${f.timeouts} timeouts`);
  return {
    id: 'W1',
    title: `PUT /Tails, new tail per request (${connectionsText(ctx, connections)})`,
    throughput: { value: f.reqPerSec, unit: 'req/s' },
    latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'response' },
    target: target('≥ 1,000 req/s, p99 ≤ 100 ms', { min: [f.reqPerSec, 1000], maxP99: [f.latencyMs.p99, 100] }),
    cpu,
    notes,
    details: { http: f },
  };
}

export async function runW2(ctx: BenchContext, connections: number): Promise<Row> {
  const { baseUrl, adminToken } = ctx.stack;
  const id = `W2x${connections}`;
  const account = await newAccount(baseUrl, adminToken, benchDomain(`w2x${connections}`));
  const perCall = 1000;
  const next = uniqueTails(`b${connections}`);
  let created = 0;
  let invalid = 0;
  let calls = 0;
  const requests: AutocannonRequest[] = [
    {
      method: 'PUT',
      path: '/Tails/Bulk',
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ tails: next(perCall) }) }),
      onResponse: (status, body) => {
        if (status !== 200) return;
        calls++;
        for (const op of (JSON.parse(body) as { operations: { isValid: boolean; wasCreated?: boolean }[] }).operations) {
          if (op.wasCreated) created++;
          else if (!op.isValid) invalid++;
        }
      },
    },
  ];
  const opts = { url: ctx.stack.gatewayUrls, connections, headers: jsonHeaders(account.token), requests };
  ctx.log(`${id}: warm-up, then ${ctx.durationS} s of PUT /Tails/Bulk (${perCall} new tails per call) with ${connections} connection(s)`);
  await autocannon({ ...opts, duration: WARMUP_S });
  created = invalid = calls = 0;
  const { result, cpu } = await ctx.measure(id, () => autocannon({ ...opts, duration: ctx.durationS }));
  const f = httpFigures(result, connections);
  const tailsPerSec = Math.round(created / f.durationS);
  const notes: string[] = [];
  if (f.non2xx || f.errors || f.timeouts) notes.push(`status codes ${JSON.stringify(f.statusCodes)}, ${f.errors} errors, ${f.timeouts} timeouts`);
  if (invalid) notes.push(`${invalid} entries answered invalid`);
  if (created !== calls * perCall) notes.push(`${calls} calls created ${created} tails (expected ${calls * perCall})`);
  return {
    id,
    title: `PUT /Tails/Bulk, 1,000 new tails per call (${connectionsText(ctx, connections)})`,
    throughput: { value: tailsPerSec, unit: 'tails/s' },
    latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'per call' },
    target: target('≥ 10,000 tails/s', { min: [tailsPerSec, 10_000] }),
    cpu,
    notes,
    details: { http: f, calls, created, invalid },
  };
}

/** W3's reads: 32 connections, each request for the next of the seeded tails in turn. */
export const READ_CONNECTIONS = 32;

/** 1,000 tails stored through the API in a new domain, readable, and requests reading them in turn. */
export async function seedTailsToRead(ctx: BenchContext, prefix: string): Promise<{ account: Account; sample: unknown; requests: AutocannonRequest[] }> {
  const { baseUrl, adminToken } = ctx.stack;
  const account = await newAccount(baseUrl, adminToken, benchDomain(prefix));
  const seeded = 1000;
  const tails = uniqueTails(prefix)(seeded);
  const bulk = await call(baseUrl, account.token, 'PUT', '/Tails/Bulk', { tails });
  if (bulk.status !== 200) throw new Error(`${prefix}: seeding tails failed: ${bulk.status} ${JSON.stringify(bulk.body).slice(0, 300)}`);
  const sample = await call(baseUrl, account.token, 'GET', `/Tails/${encodeURIComponent(tails[0].tailId)}`);
  if (sample.status !== 200) throw new Error(`${prefix}: reading a seeded tail failed: ${sample.status}`);
  let i = 0;
  const requests: AutocannonRequest[] = [
    { method: 'GET', path: '/Tails/x', setupRequest: (req) => ({ ...req, path: `/Tails/${encodeURIComponent(tails[i++ % seeded].tailId)}` }) },
  ];
  return { account, sample: sample.body, requests };
}

export async function runW3(ctx: BenchContext): Promise<Row> {
  const { account, sample, requests } = await seedTailsToRead(ctx, 'w3');
  const connections = READ_CONNECTIONS;
  const opts = { url: ctx.stack.gatewayUrls, connections, headers: { authorization: `Bearer ${account.token}` }, requests };
  ctx.log(`W3: warm-up, then ${ctx.durationS} s of GET /Tails/{mappedId} over 1,000 tails with ${connections} connections`);
  await autocannon({ ...opts, duration: WARMUP_S });
  const { result, cpu } = await ctx.measure('W3', () => autocannon({ ...opts, duration: ctx.durationS }));
  const f = httpFigures(result, connections);
  const notes: string[] = [];
  if (f.non2xx || f.errors || f.timeouts) notes.push(`status codes ${JSON.stringify(f.statusCodes)}, ${f.errors} errors, ${f.timeouts} timeouts`);
  return {
    id: 'W3',
    title: `GET /Tails/{mappedId} (${connectionsText(ctx, connections)})`,
    throughput: { value: f.reqPerSec, unit: 'req/s' },
    latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'response' },
    cpu,
    notes,
    details: { http: f, responseBytes: JSON.stringify(sample).length },
  };
}

/**
 * Not measured: the JVM of a freshly started Kafka broker needs about a minute of traffic before its
 * JIT has compiled the request paths (under W3 load its CPU falls from ~80 % to ~35 % over the first
 * 45 s), and the apps' JITs need warming too. Mixed PUT and GET traffic through the whole stack.
 */
export async function warmUp(ctx: BenchContext, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const { baseUrl, adminToken } = ctx.stack;
  const account = await newAccount(baseUrl, adminToken, benchDomain('warm'));
  const next = uniqueTails('wu');
  const seeded = next(200);
  await call(baseUrl, account.token, 'PUT', '/Tails/Bulk', { tails: seeded });
  let i = 0;
  ctx.log(`warm-up: ${seconds} s of mixed PUT /Tails and GET /Tails/{mappedId} (not measured)`);
  await autocannon({
    url: ctx.stack.gatewayUrls,
    connections: 32,
    duration: seconds,
    headers: jsonHeaders(account.token),
    requests: [
      { method: 'PUT', path: '/Tails', setupRequest: (req) => ({ ...req, body: JSON.stringify(next(1)[0]) }) },
      { method: 'GET', path: '/x', setupRequest: (req) => ({ ...req, method: 'GET', body: undefined, path: `/Tails/${seeded[i++ % seeded.length].tailId}` }) },
      { method: 'GET', path: '/x', setupRequest: (req) => ({ ...req, method: 'GET', body: undefined, path: `/Tails/${seeded[i++ % seeded.length].tailId}` }) },
    ],
  });
}

/**
 * Diagnostic for W3: GET /Version (public, answered by the gateway alone: no token check, no Kafka
 * hop, no tail-sync), so W3's cost splits into the gateway's HTTP stack and the rest.
 */
export async function runVersionDiagnostic(ctx: BenchContext): Promise<Row> {
  const connections = 32;
  const opts = { url: ctx.stack.gatewayUrls.map((url) => `${url}/Version`), connections };
  ctx.log(`D-version: warm-up, then ${ctx.durationS} s of GET /Version with ${connections} connections`);
  await autocannon({ ...opts, duration: WARMUP_S });
  const { result, cpu } = await ctx.measure('D-version', () => autocannon({ ...opts, duration: ctx.durationS }));
  const f = httpFigures(result, connections);
  return {
    id: 'D-version',
    title: `GET /Version: gateway alone, no auth, no Kafka (${connectionsText(ctx, connections)})`,
    throughput: { value: f.reqPerSec, unit: 'req/s' },
    latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'response' },
    cpu,
    details: { http: f },
  };
}

/** A real tail view as the gateway answers it (the bare-Node baseline serves the same bytes). */
export async function sampleTailView(ctx: BenchContext): Promise<string> {
  const { baseUrl, adminToken } = ctx.stack;
  const account = await newAccount(baseUrl, adminToken, benchDomain('view'));
  const tail = tailBody('view-1', 'VIEW1');
  const put = await call(baseUrl, account.token, 'PUT', '/Tails', tail);
  if (put.status !== 201) throw new Error(`creating a sample tail failed: ${put.status}`);
  const got = await call(baseUrl, account.token, 'GET', `/Tails/${tail.tailId}`);
  return JSON.stringify(got.body);
}
