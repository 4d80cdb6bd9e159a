/**
 * The steady load every fault runs under: writers creating tails (`PUT /Tails`, spread over every
 * gateway copy, each call timed, a call that outlives the request budget by 3 s counted as a hang)
 * and a product producer publishing risk assessments for subscribed domains, each delivered to a
 * real receiver of its own. Everything is recorded for the availability report and the invariants.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import { FAILOVER_CLIENT, idempotentProducer } from '@tailsync/service-kit';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { Kafka, logLevel } from 'kafkajs';
import { type FaultStack, REQUEST_BUDGET_MS } from './fault-stack';

/** One API call of the load. */
export interface Sample {
  /** When it was sent (ms since the epoch). */
  at: number;
  ms: number;
  /** The HTTP status; 0 when no answer came within the budget + 3 s (a hang), -1 when the connection failed. */
  status: number;
  /** Whether an error answer was a problem document (application/problem+json). */
  problem: boolean;
  gateway: string;
}

export interface Writer {
  domain: string;
  token: string;
  /** Mapped IDs the API answered 201 for. */
  accepted: string[];
  /** Mapped IDs of calls that got no 201 (they may or may not have been stored). */
  unsure: string[];
}

export interface PublishedEvent {
  eventId: string;
  domain: string;
  sentAt: number;
  /** When the brokers acknowledged it (acks=all); undefined when the send failed. */
  ackedAt?: number;
}

export interface Subscriber {
  domain: string;
  token: string;
  secret: string;
  receiver: WebhookReceiver;
}

export interface LoadRecord {
  samples: Sample[];
  writers: Writer[];
  subscribers: Subscriber[];
  events: PublishedEvent[];
}

export interface SteadyLoad {
  /** Ends the load; resolves once every call in flight has ended. */
  stop(): Promise<LoadRecord>;
}

export interface LoadOptions {
  /** Concurrent writers, each its own domain; default 4. */
  writers?: number;
  /** Subscribed domains receiving events; default 2. */
  subscribers?: number;
  /** One event per subscribed domain every this many ms; default 250. */
  eventEveryMs?: number;
}

const EVT = 'Product.RiskAssessmentExecuted';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, method: string, token: string | null, body?: unknown): Promise<{ status: number; problem: boolean; body: any }> {
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_BUDGET_MS + 3000),
    });
    const text = await res.text();
    return { status: res.status, problem: (res.headers.get('content-type') ?? '').includes('application/problem+json'), body: text ? JSON.parse(text) : undefined };
  } catch (error) {
    return { status: (error as Error).name === 'TimeoutError' ? 0 : -1, problem: false, body: undefined };
  }
}

/** A service account of a fresh domain, and its token. */
export async function newAccount(stack: FaultStack): Promise<{ domain: string; token: string }> {
  const domain = `fault-${randomBytes(5).toString('hex')}`;
  const base = stack.gatewayUrls[0];
  const created = await fetch(`${base}/admin/ServiceAccounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ domain, name: 'fault suite' }),
  });
  if (created.status !== 201) throw new Error(`creating a service account: ${created.status} ${await created.text()}`);
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (token.status !== 200) throw new Error(`getting a token: ${token.status} ${await token.text()}`);
  return { domain, token: ((await token.json()) as { access_token: string }).access_token };
}

/** A JSON call of the fault suite's checks (not timed). */
export const apiCall = call;

export async function startSteadyLoad(stack: FaultStack, options: LoadOptions = {}): Promise<SteadyLoad> {
  const record: LoadRecord = { samples: [], writers: [], subscribers: [], events: [] };
  const [writers, subscribers] = await Promise.all([
    Promise.all(Array.from({ length: options.writers ?? 4 }, () => newAccount(stack))),
    Promise.all(
      Array.from({ length: options.subscribers ?? 2 }, async (): Promise<Subscriber> => {
        const [account, receiver] = await Promise.all([newAccount(stack), WebhookReceiver.start(scripts.status(200))]);
        const secret = randomBytes(48).toString('hex');
        const res = await call(`${stack.gatewayUrls[0]}/WebhookSubscriptions/`, 'POST', account.token, { eventNames: [EVT], url: receiver.url, sharedSecret: secret });
        if (res.status !== 200) throw new Error(`subscribing: ${res.status} ${JSON.stringify(res.body)}`);
        return { ...account, secret, receiver };
      }),
    ),
  ]);
  record.subscribers = subscribers;
  let running = true;
  let n = 0;
  const write = async (account: { domain: string; token: string }) => {
    const writer: Writer = { ...account, accepted: [], unsure: [] };
    record.writers.push(writer);
    while (running) {
      const i = n++;
      const mappedId = `f-${i}`;
      const gateway = stack.gatewayUrls[i % stack.gatewayUrls.length];
      const at = Date.now();
      const res = await call(`${gateway}/Tails`, 'PUT', account.token, { tailId: mappedId, tailNumber: `NF${i}` });
      record.samples.push({ at, ms: Date.now() - at, status: res.status, problem: res.problem, gateway });
      (res.status === 201 ? writer.accepted : writer.unsure).push(mappedId);
      // A refused call is not retried at once: a client backs off a little.
      if (res.status !== 201) await sleep(100);
    }
  };
  const producer = idempotentProducer(
    new Kafka({ ...stack.kafka('product'), clientId: 'fault-suite-product', logLevel: logLevel.NOTHING, ...FAILOVER_CLIENT }),
  );
  await producer.connect();
  const publish = async () => {
    while (running) {
      const events: PublishedEvent[] = subscribers.map((s) => ({ eventId: randomUUID(), domain: s.domain, sentAt: Date.now() }));
      record.events.push(...events);
      try {
        await producer.send({
          topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic,
          acks: -1,
          messages: events.map((e) => ({ key: e.domain, value: JSON.stringify({ eventId: e.eventId, domain: e.domain, occurredAt: new Date(e.sentAt).toISOString(), data: { score: 2 } }) })),
        });
        const ackedAt = Date.now();
        for (const e of events) e.ackedAt = ackedAt;
      } catch {
        /* not acknowledged: the event may or may not be on the topic */
      }
      await sleep(options.eventEveryMs ?? 250);
    }
  };
  const loops = [...writers.map(write), publish()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      await producer.disconnect();
      return record;
    },
  };
}
