/**
 * Baselines, measured in the same run on the same machine with the same load generator:
 * - B-http: a bare node:http server (helper process) answering a fixed JSON body — a real tail
 *   view — under the same autocannon settings as W1/W3;
 * - B-read-floor: a bare node:http server answering W3's reads (same tails, same autocannon
 *   settings) with one `pg` query each over a pool: the floor of a read's work, its CPU (server and
 *   PostgreSQL) measured as the stack's is;
 * - B-write-floor: a bare node:http server storing W1's creates (same bodies, same autocannon
 *   settings) with one durable `pg` insert each over a pool, into a table with the same two unique
 *   keys: the floor of a create's work, its CPU measured as the stack's is;
 * - B-grpc: unary grpc-js calls to an empty handler, client and server in one helper process: the
 *   floor of one hop between the gateway and a service;
 * - B-pg: 1,000-row multi-row inserts (unnest, like the projection's) of tail-like rows into the
 *   same PostgreSQL with `pg`, from 1 and 4 connections (W2's call concurrency);
 * - B-kafka: raw kafkajs produce → consume of W4's messages (same sizes, keys, partitions, consumer
 *   settings), burst and paced.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
// Also the kafkajs idle-timer fix the apps run with, so the raw-kafkajs baseline is measured with it too.
import { idempotentProducer, kafkaConnection, replicationConfig, topicReplication } from '@tailsync/service-kit';
import { Client } from 'pg';
import { autocannon, type AutocannonRequest, httpFigures } from '../support/autocannon';
import { BenchContext, Row } from '../support/context';
import { startHelper, type Helper } from '../support/helpers';
import { summarize } from '../support/stats';
import { produceBurst, producePaced, waitForReceived } from './events';
import { createRequests, READ_CONNECTIONS, sampleTailView, seedTailsToRead, W1_CONNECTIONS } from './tails';
import { PACED_RATE, W4_DOMAINS, W4_EVENTS } from './webhooks';

export async function runHttpBaseline(ctx: BenchContext): Promise<Row> {
  const body = await sampleTailView(ctx);
  const server = await startHelper('http-baseline', ctx.stack.helperPids);
  try {
    const { port } = await server.request<{ port: number }>('start', { body });
    const connections = 32;
    const opts = { url: `http://127.0.0.1:${port}/Tails/view-1`, connections, headers: { authorization: 'Bearer x'.padEnd(200, 'x') } };
    ctx.log(`B-http: warm-up, then ${ctx.durationS} s of GET against a bare node:http server (${body.length}-byte JSON body)`);
    await autocannon({ ...opts, duration: 2 });
    const { result, cpu } = await ctx.measure('B-http', () => autocannon({ ...opts, duration: ctx.durationS }));
    const f = httpFigures(result, connections);
    return {
      id: 'B-http',
      title: `Bare node:http, fixed ${body.length}-byte JSON (${connections} conn.)`,
      throughput: { value: f.reqPerSec, unit: 'req/s' },
      latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'response' },
      cpu,
      details: { http: f, bodyBytes: body.length },
    };
  } finally {
    await server.stop();
  }
}

export async function runReadFloorBaseline(ctx: BenchContext): Promise<Row> {
  const { databaseUrl } = ctx.stack;
  if (!databaseUrl) throw new Error('B-read-floor needs DATABASE_URL');
  const { account, requests } = await seedTailsToRead(ctx, 'floor');
  return runFloor(ctx, {
    id: 'B-read-floor',
    role: 'read-floor',
    start: { databaseUrl, domain: account.domain, source: account.clientId },
    connections: READ_CONNECTIONS,
    requests,
    what: "W3's reads against a bare node:http server with one pg query each",
    title: "Bare node:http + one pg query per read, W3's tails",
  });
}

export async function runWriteFloorBaseline(ctx: BenchContext): Promise<Row> {
  const { databaseUrl } = ctx.stack;
  if (!databaseUrl) throw new Error('B-write-floor needs DATABASE_URL');
  return runFloor(ctx, {
    id: 'B-write-floor',
    role: 'write-floor',
    start: { databaseUrl, domain: 'write-floor.example' },
    connections: W1_CONNECTIONS,
    headers: { 'content-type': 'application/json' },
    requests: createRequests('floor'),
    what: "W1's creates against a bare node:http server with one pg insert each",
    title: "Bare node:http + one pg insert per create, W1's bodies",
  });
}

/** A floor of a request workload: a bare server in a helper process, under that workload's autocannon settings. */
interface Floor {
  id: string;
  role: 'read-floor' | 'write-floor';
  start: Record<string, unknown>;
  connections: number;
  headers?: Record<string, string>;
  requests: AutocannonRequest[];
  what: string;
  title: string;
}

async function runFloor(ctx: BenchContext, floor: Floor): Promise<Row> {
  return inOwnGroup(ctx, floor.role, async (server) => {
    const { port } = await server.request<{ port: number }>('start', floor.start);
    const { connections } = floor;
    const opts = { url: `http://127.0.0.1:${port}`, connections, headers: floor.headers, requests: floor.requests };
    ctx.log(`${floor.id}: warm-up, then ${ctx.durationS} s of ${floor.what}`);
    await autocannon({ ...opts, duration: 2 });
    const { result, cpu } = await ctx.measure(floor.id, () => autocannon({ ...opts, duration: ctx.durationS }));
    const f = httpFigures(result, connections);
    const notes = f.non2xx || f.errors || f.timeouts ? [`status codes ${JSON.stringify(f.statusCodes)}, ${f.errors} errors, ${f.timeouts} timeouts`] : [];
    return {
      id: floor.id,
      title: `${floor.title} (${connections} conn.)`,
      throughput: { value: f.reqPerSec, unit: 'req/s' },
      latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, what: 'response' },
      cpu,
      notes,
      details: { http: f },
    };
  });
}

export async function runGrpcBaseline(ctx: BenchContext): Promise<Row> {
  const concurrency = READ_CONNECTIONS;
  ctx.log(`B-grpc: ${ctx.durationS} s of unary grpc-js calls to an empty handler, ${concurrency} in flight`);
  return inOwnGroup(ctx, 'grpc-floor', async (helper) => {
    await helper.request('run', { seconds: 2, concurrency });
    const { result, cpu } = await ctx.measure('B-grpc', () => helper.request<{ latencies: number[] }>('run', { seconds: ctx.durationS, concurrency }));
    const latency = summarize(result.latencies);
    return {
      id: 'B-grpc',
      title: `One unary grpc-js call to an empty handler, client and server in one process (${concurrency} in flight)`,
      throughput: { value: Math.round(latency.count / ctx.durationS), unit: 'calls/s' },
      latencyMs: { p50: latency.p50, p99: latency.p99, what: 'call' },
      cpu,
    };
  });
}

/** A helper whose CPU is a baseline's own, not the load generator's: a process group of its own while it runs. */
async function inOwnGroup(ctx: BenchContext, role: 'read-floor' | 'write-floor' | 'grpc-floor', run: (helper: Helper) => Promise<Row>): Promise<Row> {
  const helper = await startHelper(role, ctx.stack.helperPids);
  ctx.stack.helperPids.delete(helper.pid);
  const group = { name: role, pids: () => [helper.pid] };
  ctx.stack.groups.push(group);
  try {
    return await run(helper);
  } finally {
    ctx.stack.groups.splice(ctx.stack.groups.indexOf(group), 1);
    await helper.stop();
  }
}

export async function runPgBaseline(ctx: BenchContext, connections: number): Promise<Row> {
  const { databaseUrl } = ctx.stack;
  if (!databaseUrl) throw new Error('B-pg needs DATABASE_URL');
  const table = `bench_raw_tails_${randomBytes(3).toString('hex')}`;
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  // Shaped like rm_tails as it was (key on tail_id plus a (domain, tail_id) index; now one key on
  // (domain, tail_id)): kept, so the baseline and the ratios against it stay comparable over time.
  await clients[0].query(`create table ${table} (
      tail_id bigint primary key, domain text not null, source text not null, mapped_id text not null,
      tail_number text not null, tail_number_key text not null, registration_number text, icao_type_name text,
      vendor_type_name text, country_code text, passenger_seating int, status text not null, version int not null,
      created_at timestamptz not null, updated_at timestamptz not null)`);
  await clients[0].query(`create index on ${table} (domain, tail_id)`);
  await clients[0].query(`create index on ${table} (domain, tail_number_key)`);
  await clients[0].query(`create unique index on ${table} (domain, source, mapped_id)`);
  const perStatement = 1000;
  let nextId = 1;
  const insert = async (c: Client) => {
    const ids = Array.from({ length: perStatement }, () => nextId++);
    const now = new Date().toISOString();
    const num = ids.map((i) => `B${i.toString(36)}`);
    await c.query(
      `insert into ${table} select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::int[], $14::timestamptz[], $15::timestamptz[])`,
      [
        ids, ids.map(() => 'bench-raw'), ids.map(() => 'sa_bench'), ids.map((i) => `raw-${i}`), num, num, num, ids.map(() => 'B738'),
        ids.map(() => 'Boeing 737-800'), ids.map(() => 'US'), ids.map(() => 162), ids.map(() => 'active'), ids.map(() => 1),
        ids.map(() => now), ids.map(() => now),
      ],
    );
  };
  try {
    for (let i = 0; i < 3; i++) await insert(clients[0]); // warm-up
    const seconds = Math.min(5, ctx.durationS);
    ctx.log(`B-pgx${connections}: ${seconds} s of ${perStatement}-row inserts into PostgreSQL from ${connections} connection(s)`);
    const latencies: number[] = [];
    let rows = 0;
    const { cpu } = await ctx.measure(`B-pgx${connections}`, async () => {
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        clients.map(async (c) => {
          while (Date.now() < until) {
            const t = performance.now();
            await insert(c);
            latencies.push(performance.now() - t);
            rows += perStatement;
          }
        }),
      );
    });
    const lat = summarize(latencies);
    return {
      id: `B-pgx${connections}`,
      title: `Raw pg: 1,000-row inserts of tail-like rows (${connections} conn.)`,
      throughput: { value: Math.round(rows / seconds), unit: 'rows/s' },
      latencyMs: { p50: lat.p50, p99: lat.p99, what: 'per statement' },
      cpu,
      details: { rows, statements: latencies.length },
    };
  } finally {
    await clients[0].query(`drop table if exists ${table}`).catch(() => undefined);
    await Promise.all(clients.map((c) => c.end()));
  }
}

export async function runKafkaBaseline(ctx: BenchContext): Promise<Row[]> {
  const settings = ctx.stack.kafka;
  const tag = randomBytes(3).toString('hex');
  const topic = `bench.raw-${tag}`;
  const domains = Array.from({ length: W4_DOMAINS }, (_, i) => `bench-raw-${tag}-${i}`);
  const kafka = new Kafka({ ...kafkaConnection(settings), clientId: 'bench-raw', logLevel: logLevel.WARN });
  const admin = kafka.admin();
  await admin.connect();
  // Partitions and replicas as product.risk-assessment-executed has them (6; the stack's replication).
  const replication = topicReplication((await admin.describeCluster()).brokers.length);
  const configEntries = Object.entries(replicationConfig(replication)).map(([name, value]) => ({ name, value }));
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 6, replicationFactor: replication.replicationFactor, configEntries }] });
  const sink = await startHelper('kafka-sink', ctx.stack.helperPids);
  const producer = idempotentProducer(kafka);
  try {
    await sink.request('start', { kafka: settings, topic, groupId: `bench-raw-${tag}` });
    await producer.connect();
    await produceBurst(producer, topic, domains, W4_DOMAINS); // warm-up
    await waitForReceived(sink, W4_DOMAINS, 20_000);
    await sink.request('take');

    ctx.log(`B-kafka: burst of ${W4_EVENTS} messages, produce → consume`);
    const burst = await ctx.measure('B-kafka-burst', async () => {
      const start = Date.now();
      await produceBurst(producer, topic, domains, W4_EVENTS);
      const got = await waitForReceived(sink, W4_EVENTS, 20_000);
      const { records } = await sink.request<{ records: { receivedAt: number; occurredAt: number }[] }>('take');
      return { start, got, records };
    });
    const b = burst.result;
    const burstSecs = (Math.max(...b.records.map((r) => r.receivedAt)) - b.start) / 1000;
    const burstLat = summarize(b.records.map((r) => r.receivedAt - r.occurredAt));

    const pacedSecs = ctx.durationS;
    ctx.log(`B-kafka: paced, ${PACED_RATE} messages/s for ${pacedSecs} s`);
    const paced = await ctx.measure('B-kafka-paced', async () => {
      const sent = await producePaced(producer, topic, domains, PACED_RATE, pacedSecs);
      const got = await waitForReceived(sink, sent, 20_000);
      const { records } = await sink.request<{ records: { receivedAt: number; occurredAt: number }[] }>('take');
      return { sent, got, records };
    });
    const p = paced.result;
    const pacedLat = summarize(p.records.map((r) => r.receivedAt - r.occurredAt));
    return [
      {
        id: 'B-kafka-burst',
        title: `Raw kafkajs produce → consume, ${W4_EVENTS.toLocaleString('en-US')} messages (burst)`,
        throughput: { value: Math.round(b.got / burstSecs), unit: 'msgs/s' },
        latencyMs: { p50: burstLat.p50, p99: burstLat.p99, what: 'produce → consume' },
        cpu: burst.cpu,
        details: { messages: b.got, seconds: Math.round(burstSecs * 100) / 100, latencyMs: burstLat },
      },
      {
        id: 'B-kafka-paced',
        title: `Raw kafkajs produce → consume, paced at ${PACED_RATE}/s`,
        throughput: { value: Math.round(p.got / pacedSecs), unit: 'msgs/s' },
        latencyMs: { p50: pacedLat.p50, p99: pacedLat.p99, what: 'produce → consume' },
        cpu: paced.cpu,
        details: { messages: p.got, latencyMs: pacedLat },
      },
    ];
  } finally {
    await producer.disconnect().catch(() => undefined);
    await sink.stop();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}
