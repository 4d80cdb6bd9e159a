import type { Message } from 'kafkajs';
import { TAIL_PROPERTY_NAMES, tailEventKey, type TailEventMessage } from '@tailsync/contracts';
import type { StoredEvent } from '@tailsync/event-store';
import { tailIdOfStream, tailStreamId } from '../../domain/stream-ids';
import { evolve } from '../../domain/tail.decider';
import { isTailEventType, toTailEvent } from '../../domain/tail.events';
import type { TailState } from '../../domain/tail.state';
import { tailEventHeaders } from './tail-event-headers';

/** Fields every tail event carries, shown beside `data` in a message rather than in it. */
const ENVELOPE_FIELDS = new Set(['eventId', 'domain', 'tailId', 'occurredAt']);

/** A tail event's own fields: its data without the envelope; keeps `actor`. */
export function tailEventOwnFields(type: string, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Object.keys, not Object.entries: no [key, value] array per field (1,000 events per batch).
  for (const k of Object.keys(data)) if (!ENVELOPE_FIELDS.has(k)) out[k] = data[k];
  // A TailCreated stored before a tail property existed (or by an older copy, mid-deploy) lacks
  // it; the schema requires every property, null when not given, as `evolve` reads it.
  if (type === 'TailCreated') for (const name of TAIL_PROPERTY_NAMES) if (!(name in out)) out[name] = null;
  return out;
}

/**
 * The batch's events per tail stream: the streams whose batch events are their versions 1..n (new
 * tails) are their own history; the others must be read back.
 */
export function historiesInBatch(events: StoredEvent[]): { histories: Map<string, StoredEvent[]>; toRead: string[] } {
  const inBatch = new Map<string, StoredEvent[]>();
  for (const e of events) {
    const list = inBatch.get(e.streamId);
    if (list) list.push(e);
    else inBatch.set(e.streamId, [e]);
  }
  const histories = new Map<string, StoredEvent[]>();
  const toRead: string[] = [];
  for (const [streamId, list] of inBatch) {
    const sorted = [...list].sort((a, b) => a.version - b.version);
    if (sorted.every((e, i) => e.version === i + 1)) histories.set(streamId, sorted);
    else toRead.push(streamId);
  }
  return { histories, toRead };
}

/**
 * The tail's Mapped IDs after each version of its history (`[version] → ids`), folded with the
 * domain's `evolve`; versions that add no mapping share the array of the one before.
 */
export function mappedIdsAfterEachVersion(history: StoredEvent[]): string[][] {
  const after: string[][] = [[]];
  let state: TailState | null = null;
  let ids: string[] = [];
  for (const e of history) {
    // An event this version does not know, or one before the tail's creation, changes no mapping.
    if (isTailEventType(e.type) && (state !== null || e.type === 'TailCreated')) {
      const next = evolve(state, toTailEvent(e));
      if (next.mappings !== state?.mappings) ids = next.mappings.map((m) => m.mappedId);
      state = next;
    }
    after[e.version] = ids;
  }
  return after;
}

/**
 * The batch's tail events as topic messages (key `<domain>:<tailId>`, in global order), split into
 * sends of at most `maxBytesPerSend` JSON bytes. `mappedIdsAt` holds every event's stream.
 */
export function tailEventMessages(events: StoredEvent[], mappedIdsAt: Map<string, string[][]>, maxBytesPerSend: number): Message[][] {
  const chunks: Message[][] = [];
  let chunk: Message[] = [];
  let bytes = 0;
  for (const e of events) {
    const tailId = tailIdOfStream(e.streamId) as number;
    const domain = String(e.data.domain ?? (e.metadata as { domain?: unknown }).domain ?? '');
    const mappedIds = mappedIdsAt.get(e.streamId)?.[e.version] ?? missingVersion(e, tailId);
    const occurredAt = typeof e.data.occurredAt === 'string' ? e.data.occurredAt : e.recordedAt.toISOString();
    const value: TailEventMessage = {
      eventId: e.eventId,
      type: e.type,
      domain,
      tailId,
      mappedIds,
      occurredAt,
      data: tailEventOwnFields(e.type, e.data),
      position: e.position,
    };
    const json = JSON.stringify(value);
    if (chunk.length > 0 && bytes + json.length > maxBytesPerSend) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push({ key: tailEventKey(domain, tailId), value: json, headers: tailEventHeaders(e.eventId, e.type, occurredAt, (e.metadata as { traceparent?: unknown }).traceparent) });
    bytes += json.length;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The stream read must contain every event the batch read; if not, something is badly wrong. */
function missingVersion(e: StoredEvent, tailId: number): never {
  throw new Error(`Tail events relay: ${tailStreamId(tailId)} has no version ${e.version} when read back`);
}
