/**
 * What must hold once a fault has healed, checked until it holds or `settleMs` runs out (nothing
 * may stay stuck): every tail the API accepted is readable, every stored tail of the load's
 * domains is on `tailsync.tail-events`; every event the brokers acknowledged reached its domain's
 * receiver, with a valid signature; the receivers got nothing but the load's own events (repeats
 * are counted: at-least-once), and no delivery is left pending or failed.
 */
import { type TailEventMessage, TOPICS } from '@tailsync/contracts';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { readToEnd } from '@tailsync/service-kit/testing';
import { Kafka, logLevel } from 'kafkajs';
import type { FaultStack } from './fault-stack';
import { apiCall, type LoadRecord } from './steady-load';

export interface InvariantsOutcome {
  /** Empty when every invariant held. */
  violations: string[];
  /** From the start of the check until everything held (or the time ran out). */
  settledAfterMs: number;
  /** Deliveries a receiver got more than once (at-least-once allows them). */
  repeatedDeliveries: number;
  /** Slowest event: from the send to its first delivery. */
  slowestDeliveryMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Mapped IDs of every tail on the topic of the given domains (the topic read to its end). */
async function mappedIdsOnTopic(stack: FaultStack, domains: Set<string>): Promise<Set<string>> {
  const kafka = new Kafka({ ...stack.kafka('admin'), clientId: 'fault-suite-check', logLevel: logLevel.NOTHING });
  const found = new Set<string>();
  for (const message of await readToEnd(kafka, TOPICS.tailEvents, { groupPrefix: 'fault-suite-', timeoutMs: 30_000 })) {
    const value = JSON.parse(message.value?.toString() ?? 'null') as TailEventMessage;
    if (value.type === 'TailCreated' && domains.has(value.domain)) for (const id of value.mappedIds) found.add(`${value.domain}/${id}`);
  }
  return found;
}

/** Every tail of a domain, through the API. */
async function storedMappedIds(url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await apiCall(`${url}/Tails?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, 'GET', token);
    if (page.status !== 200) throw new Error(`GET /Tails answered ${page.status}`);
    for (const item of page.body.items as { mappedId: string }[]) ids.push(item.mappedId);
    cursor = page.body.nextCursor;
  } while (cursor);
  return ids;
}

/** The violations as they stand now. */
async function violationsNow(stack: FaultStack, record: LoadRecord): Promise<string[]> {
  const url = stack.gatewayUrls[0];
  const found: string[] = [];
  const stored = new Map<string, string[]>();
  for (const writer of record.writers) {
    const ids = await storedMappedIds(url, writer.token);
    stored.set(writer.domain, ids);
    const have = new Set(ids);
    const missing = writer.accepted.filter((id) => !have.has(id));
    if (missing.length > 0) found.push(`${writer.domain}: ${missing.length} accepted tail(s) not listed, e.g. ${missing.slice(0, 3).join(', ')}`);
    const sent = new Set([...writer.accepted, ...writer.unsure]);
    const strange = ids.filter((id) => !sent.has(id));
    if (strange.length > 0) found.push(`${writer.domain}: ${strange.length} tail(s) nobody wrote, e.g. ${strange.slice(0, 3).join(', ')}`);
    for (const id of writer.accepted.slice(-3)) {
      const read = await apiCall(`${url}/Tails/${encodeURIComponent(id)}`, 'GET', writer.token);
      if (read.status !== 200) found.push(`${writer.domain}: GET /Tails/${id} answered ${read.status}`);
    }
  }
  const onTopic = await mappedIdsOnTopic(stack, new Set(record.writers.map((w) => w.domain)));
  for (const [domain, ids] of stored) {
    const absent = ids.filter((id) => !onTopic.has(`${domain}/${id}`));
    if (absent.length > 0) found.push(`${domain}: ${absent.length} stored tail(s) not on ${TOPICS.tailEvents}, e.g. ${absent.slice(0, 3).join(', ')}`);
  }
  for (const s of record.subscribers) {
    const sent = record.events.filter((e) => e.domain === s.domain);
    const sentIds = new Set(sent.map((e) => e.eventId));
    const arrived = new Set<string>();
    for (const r of s.receiver.requests) {
      const id = String(r.headers['webhook-id']);
      if (!sentIds.has(id)) found.push(`${s.domain}: a delivery of an event never sent to it (${id})`);
      const verdict = verifyWebhookRequest({ authorizationHeader: r.headers.authorization, rawBody: r.rawBody, secret: s.secret });
      if (!verdict.ok) found.push(`${s.domain}: delivery ${id} does not verify (${verdict.code})`);
      arrived.add(id);
    }
    const lost = sent.filter((e) => e.ackedAt !== undefined && !arrived.has(e.eventId));
    if (lost.length > 0) found.push(`${s.domain}: ${lost.length} acknowledged event(s) not delivered, e.g. ${lost.slice(0, 3).map((e) => e.eventId).join(', ')}`);
    const deliveries = await apiCall(`${url}/WebhookSubscriptions/Deliveries?limit=200&status=pending`, 'GET', s.token);
    const unsettled = ((deliveries.body?.items ?? []) as { status: string }[]).filter((d) => d.status !== 'delivered');
    if (unsettled.length > 0) found.push(`${s.domain}: ${unsettled.length} deliveries ${[...new Set(unsettled.map((d) => d.status))].join('/')}`);
  }
  return found;
}

export async function checkInvariants(stack: FaultStack, record: LoadRecord, settleMs = 90_000): Promise<InvariantsOutcome> {
  const started = Date.now();
  let violations: string[] = [];
  for (;;) {
    try {
      violations = await violationsNow(stack, record);
    } catch (error) {
      violations = [`checking failed: ${(error as Error).message}`];
    }
    if (violations.length === 0 || Date.now() - started > settleMs) break;
    await sleep(2000);
  }
  const firstArrival = new Map<string, number>();
  let requests = 0;
  for (const s of record.subscribers) {
    for (const r of s.receiver.requests) {
      requests++;
      const id = String(r.headers['webhook-id']);
      firstArrival.set(id, Math.min(firstArrival.get(id) ?? Infinity, r.receivedAt));
    }
  }
  const latencies = record.events.filter((e) => firstArrival.has(e.eventId)).map((e) => (firstArrival.get(e.eventId) as number) - e.sentAt);
  return { violations, settledAfterMs: Date.now() - started, repeatedDeliveries: requests - firstArrival.size, slowestDeliveryMs: Math.max(0, ...latencies) };
}
