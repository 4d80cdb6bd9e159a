/** Product.RiskAssessmentExecuted events as the product produces them, burst or paced, with kafkajs. */
import { randomUUID } from 'node:crypto';
import type { RiskAssessmentExecutedMessage } from '@tailsync/contracts';
import type { Message, Producer } from 'kafkajs';
import type { Helper } from '../support/helpers';
import { sleep } from '../support/stats';

let serial = 0;

/** One event; `occurredAt` is the produce time (the start of the event-to-callback latency). */
export function riskEvent(domain: string): RiskAssessmentExecutedMessage {
  serial++;
  return {
    eventId: randomUUID(),
    domain,
    occurredAt: new Date().toISOString(),
    data: {
      assessmentId: randomUUID(),
      tailNumber: `N${10_000 + (serial % 90_000)}`,
      flightNumber: `TS${serial % 10_000}`,
      score: Math.round(Math.random() * 1000) / 10,
      riskLevel: ['low', 'medium', 'high'][serial % 3],
      factors: ['weather', 'crew-duty', 'maintenance'],
    },
  };
}

const toMessage = (e: RiskAssessmentExecutedMessage): Message => ({ key: e.domain, value: JSON.stringify(e) });

/** Produces `total` events round-robin over `domains`, as fast as the producer takes them. */
export async function produceBurst(producer: Producer, topic: string, domains: string[], total: number, batch = 500): Promise<void> {
  let k = 0;
  for (let sent = 0; sent < total; sent += batch) {
    const n = Math.min(batch, total - sent);
    const messages = Array.from({ length: n }, () => toMessage(riskEvent(domains[k++ % domains.length])));
    await producer.send({ topic, acks: -1, messages });
  }
}

/** Produces `rate` events per second for `seconds`, each sent as soon as it is due. */
export async function producePaced(producer: Producer, topic: string, domains: string[], rate: number, seconds: number): Promise<number> {
  const total = Math.round(rate * seconds);
  const start = Date.now();
  let sent = 0;
  let k = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * rate) + 1);
    if (due > sent) {
      const messages = Array.from({ length: due - sent }, () => toMessage(riskEvent(domains[k++ % domains.length])));
      await producer.send({ topic, acks: -1, messages });
      sent = due;
    } else {
      await sleep(1);
    }
  }
  return sent;
}

/** What makes a webhook workload's figure suspect: events not delivered, duplicates, unsigned or badly signed callbacks. */
export function deliveryNotes(got: number, expected: number, stats: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (got < expected) notes.push(`only ${got} of ${expected} events delivered (stalled 20 s)`);
  if (stats.duplicates) notes.push(`${stats.duplicates} duplicate callbacks`);
  if (stats.unsigned) notes.push(`${stats.unsigned} callbacks without Token/Webhook-Id`);
  if ((stats.verifyFailures as string[])?.length) notes.push(`signature check failed: ${(stats.verifyFailures as string[]).join('; ')}`);
  return notes;
}

/** Waits until the helper has seen `expected` distinct messages, or nothing new came for `stallMs`. */
export async function waitForReceived(helper: Helper, expected: number, stallMs: number): Promise<number> {
  let last = -1;
  let lastChange = Date.now();
  for (;;) {
    const { distinct } = await helper.request<{ distinct: number }>('stats');
    if (distinct >= expected) return distinct;
    if (distinct !== last) {
      last = distinct;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > stallMs) return distinct;
    await sleep(50);
  }
}

export interface Delivered {
  occurredAt: number;
  receivedAt: number;
}
