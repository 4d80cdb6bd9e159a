/**
 * The bench's helper processes (forked through tools/run.js, driven over IPC), kept out of the
 * load generator's event loop so their timestamps are not delayed by it:
 * - `http-baseline`: a bare node:http server answering one fixed JSON body;
 * - `read-floor`: a bare node:http server answering each read with one `pg` query over a pool;
 * - `write-floor`: a bare node:http server storing each create with one `pg` insert over a pool;
 * - `grpc-floor`: one unary grpc-js call after another (32 at a time) to an empty handler, both ends
 *   in this process, so its CPU is the whole hop's;
 * - `receiver`: the webhook receiver of W4 and W6 (answers 200 at once, stamps each callback, verifies a
 *   sample; a callback to `/hang…` is read and never answered);
 * - `kafka-sink`: the consumer of the raw kafkajs baseline (same consumer settings as the dispatcher).
 */
import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
// Also the kafkajs idle-timer fix the apps run with, so the raw-kafkajs baseline is measured with it too.
import { kafkaConnection, type KafkaSettings } from '@tailsync/service-kit';
import { verifyWebhookRequest, type WebhookJwks } from '@tailsync/webhooks';

interface Message {
  id: number;
  type: string;
  [key: string]: unknown;
}

export interface Received {
  eventId: string;
  domain: string;
  occurredAt: number;
  receivedAt: number;
  attempt: number;
}

const send = (msg: Record<string, unknown>) => process.send?.(msg);
const role = process.argv[2];
let handlers: Record<string, (msg: Message) => Promise<Record<string, unknown>> | Record<string, unknown>> = {};

process.on('message', async (msg: Message) => {
  try {
    const handler = handlers[msg.type];
    if (!handler) throw new Error(`${role}: unknown request ${msg.type}`);
    send({ id: msg.id, ok: true, ...(await handler(msg)) });
  } catch (error) {
    send({ id: msg.id, ok: false, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));

function listen(server: http.Server): Promise<number> {
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

if (role === 'http-baseline') {
  handlers = {
    start: async (msg) => {
      const body = Buffer.from(String(msg.body));
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
        res.end(body);
      });
      return { port: await listen(server) };
    },
  };
} else if (role === 'read-floor') {
  // The least a server can do for W3's read: one query by the same key, over the same tables,
  // returning the row and its mappings as JSON. Written here, not imported: the floor is what a
  // bare server would write, not tail-sync's read model.
  const READ =
    `select to_jsonb(t) || jsonb_build_object('mappings', (select jsonb_agg(jsonb_build_object('source', m.source, 'mappedId', m.mapped_id))
       from rm_tail_mappings m where m.domain = t.domain and m.tail_id = t.tail_id)) as view
       from rm_tail_mappings k join rm_tails t on t.domain = k.domain and t.tail_id = k.tail_id
      where k.domain = $1 and k.source = $2 and k.mapped_id = $3`;
  handlers = {
    start: async (msg) => {
      const pool = new Pool({ connectionString: String(msg.databaseUrl), max: 20 });
      const [domain, source] = [String(msg.domain), String(msg.source)];
      const server = http.createServer((req, res) => {
        const mappedId = decodeURIComponent((req.url ?? '').slice('/Tails/'.length));
        pool.query({ name: 'read-floor', text: READ, values: [domain, source, mappedId] }).then(
          ({ rows }) => {
            const body = rows[0] ? JSON.stringify(rows[0].view) : '{"status":404}';
            res.writeHead(rows[0] ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
            res.end(body);
          },
          () => res.writeHead(500).end(),
        );
      });
      return { port: await listen(server) };
    },
  };
} else if (role === 'write-floor') {
  // The least a server can do for W1's create: one durable insert of the tail, refused on either of
  // its unique keys (its Mapped ID, its tail number in the domain), answering the stored row. No
  // event, no relay to Kafka, no token: what a bare server writing one table would do.
  const TABLE = 'bench_write_floor';
  const INSERT = `insert into ${TABLE} (domain, mapped_id, tail_number, tail_number_key, properties)
    values ($1, $2, $3, upper($3), $4) returning tail_id, mapped_id, tail_number, properties, created_at`;
  handlers = {
    start: async (msg) => {
      const pool = new Pool({ connectionString: String(msg.databaseUrl), max: 20 });
      await pool.query(`drop table if exists ${TABLE}`);
      await pool.query(`create table ${TABLE} (
          tail_id bigint generated always as identity, domain text not null, mapped_id text not null,
          tail_number text not null, tail_number_key text not null, properties jsonb not null,
          created_at timestamptz not null default now(),
          primary key (domain, mapped_id), unique (domain, tail_number_key))`);
      const domain = String(msg.domain);
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const tail = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tailId: string; tailNumber: string };
          pool.query({ name: 'write-floor', text: INSERT, values: [domain, tail.tailId, tail.tailNumber, tail] }).then(
            ({ rows }) => {
              const body = JSON.stringify(rows[0]);
              res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
              res.end(body);
            },
            (error: { code?: string }) => res.writeHead(error.code === '23505' ? 409 : 500).end(),
          );
        });
      });
      return { port: await listen(server) };
    },
  };
} else if (role === 'grpc-floor') {
  const EMPTY = Buffer.alloc(0);
  const bytes = (b: Buffer) => b;
  const call: grpc.MethodDefinition<Buffer, Buffer> = {
    path: '/bench.Floor/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  };
  handlers = {
    /** Unary calls, `concurrency` in flight, for `seconds`: how many completed and their latencies. */
    run: async (msg) => {
      const server = new grpc.Server();
      server.addService({ Call: call }, { Call: (_c: unknown, done: grpc.sendUnaryData<Buffer>) => done(null, EMPTY) });
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
      );
      const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const unary = () =>
        new Promise<void>((resolve, reject) => client.makeUnaryRequest(call.path, bytes, bytes, EMPTY, (e) => (e ? reject(e) : resolve())));
      const until = Date.now() + Number(msg.seconds) * 1000;
      const latencies: number[] = [];
      await Promise.all(
        Array.from({ length: Number(msg.concurrency) }, async () => {
          while (Date.now() < until) {
            const start = performance.now();
            await unary();
            latencies.push(performance.now() - start);
          }
        }),
      );
      client.close();
      server.forceShutdown();
      return { latencies };
    },
  };
} else if (role === 'receiver') {
  let records: Received[] = [];
  const seen = new Set<string>();
  let requests = 0;
  let duplicates = 0;
  let unsigned = 0;
  let verified = 0;
  let verifyFailures: string[] = [];
  let secrets: Record<string, string> = {};
  // The JWK Sets of `ed25519` domains: their callbacks are checked with these instead of a secret.
  let publicKeys: Record<string, WebhookJwks> = {};
  let verifyEvery = 20;
  let hanging = 0;
  handlers = {
    /** What the callbacks are checked with (every `verifyEvery`-th): a domain's JWK Set, or else its secret. */
    verifyWith: (msg) => {
      secrets = msg.secrets as Record<string, string>;
      publicKeys = (msg.publicKeys ?? {}) as Record<string, WebhookJwks>;
      verifyEvery = Number(msg.verifyEvery ?? 20);
      return {};
    },
    listen: async () => {
      const server = http.createServer((req, res) => {
        const receivedAt = Date.now();
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          // W6's noisy neighbour: accepted, read, never answered (the dispatcher's attempt time-out ends it).
          if (req.url?.startsWith('/hang')) {
            hanging++;
            return;
          }
          res.writeHead(200, { 'content-length': 0 });
          res.end();
          requests++;
          const raw = Buffer.concat(chunks);
          const webhookId = String(req.headers['webhook-id'] ?? '');
          const authorization = req.headers.authorization;
          if (!webhookId || !/^Token \S+$/.test(String(authorization ?? ''))) unsigned++;
          let body: { eventId?: string; domain?: string; occurredAt?: string };
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            return;
          }
          const eventId = String(body.eventId ?? webhookId);
          if (seen.has(eventId)) {
            duplicates++;
            return;
          }
          seen.add(eventId);
          const domain = String(body.domain ?? '');
          if (seen.size % verifyEvery === 1) {
            const keys = publicKeys[domain] ? { publicKeys: publicKeys[domain] } : { secret: secrets[domain] ?? 'x'.repeat(64) };
            const verdict = verifyWebhookRequest({ authorizationHeader: authorization, rawBody: raw, ...keys });
            if (verdict.ok) verified++;
            else if (verifyFailures.length < 5) verifyFailures.push(`step ${verdict.step}: ${verdict.reason}`);
          }
          records.push({
            eventId,
            domain,
            occurredAt: Date.parse(String(body.occurredAt)),
            receivedAt,
            attempt: Number(req.headers['webhook-attempt'] ?? 1),
          });
        });
      });
      return { port: await listen(server) };
    },
    stats: () => ({ requests, distinct: seen.size, duplicates, unsigned, verified, verifyFailures, hanging }),
    take: () => {
      const out = records;
      records = [];
      return { records: out };
    },
    reset: () => {
      records = [];
      seen.clear();
      requests = duplicates = unsigned = verified = hanging = 0;
      verifyFailures = [];
      return {};
    },
  };
} else if (role === 'kafka-sink') {
  let records: { receivedAt: number; occurredAt: number }[] = [];
  handlers = {
    start: async (msg) => {
      const kafka = new Kafka({ ...kafkaConnection(msg.kafka as KafkaSettings), clientId: 'bench-sink', logLevel: logLevel.WARN });
      // The same consumer settings as the dispatcher's event consumer.
      const consumer = kafka.consumer({
        groupId: String(msg.groupId),
        sessionTimeout: 10_000,
        heartbeatInterval: 1_000,
        rebalanceTimeout: 10_000,
        maxWaitTimeInMs: 50,
        allowAutoTopicCreation: false,
      });
      await consumer.connect();
      const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
      await consumer.subscribe({ topic: String(msg.topic), fromBeginning: true });
      await consumer.run({
        partitionsConsumedConcurrently: 3,
        eachBatch: async ({ batch }) => {
          const receivedAt = Date.now();
          for (const m of batch.messages) {
            const value = JSON.parse(m.value?.toString('utf8') ?? '{}') as { occurredAt?: string };
            records.push({ receivedAt, occurredAt: Date.parse(String(value.occurredAt)) });
          }
        },
      });
      await joined;
      return {};
    },
    stats: () => ({ distinct: records.length }),
    take: () => {
      const out = records;
      records = [];
      return { records: out };
    },
  };
} else {
  throw new Error(`unknown helper role ${role}`);
}

send({ type: 'ready' });
