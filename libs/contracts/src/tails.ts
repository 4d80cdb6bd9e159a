/**
 * Shapes of the tail read side (contract: Tails — tail view, list, history) and of the
 * `tailsync.tail-events` Kafka messages (contract: Tail events for other services).
 */
import type { TailProperties } from './tail-properties';

export type TailViewStatus = 'active' | 'inactive';

export const TAIL_VIEW_STATUSES: readonly TailViewStatus[] = ['active', 'inactive'];

/** One Mapped ID of a tail: the source (clientId of a service account of the domain) and its id. */
export interface TailMappingView {
  source: string;
  mappedId: string;
}

/** The tail view every tail endpoint answers with: its optional properties are the table's (tail-properties.ts). */
export interface TailView extends TailProperties {
  /** The service's own positive integer id. */
  tailId: number;
  /** The caller's (source's) Mapped ID of this tail; `null` when the caller has none. */
  mappedId: string | null;
  tailNumber: string;
  status: TailViewStatus;
  /** Every mapping of the tail (a tail belongs to one domain), oldest first: the creator's first. */
  mappings: TailMappingView[];
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601: when the newest event of the tail occurred. */
  updatedAt: string;
  /** Number of events of the tail. */
  version: number;
}

export const TAIL_LIST_DEFAULT_LIMIT = 50;
export const TAIL_LIST_MAX_LIMIT = 500;

/** `GET /Tails?status=&tailNumber=&limit=&cursor=` */
export interface TailListQuery {
  status?: TailViewStatus;
  /** Compared case-insensitively with the trimmed tail number (exact match otherwise). */
  tailNumber?: string;
  /** 1 to {@link TAIL_LIST_MAX_LIMIT}; default {@link TAIL_LIST_DEFAULT_LIMIT}. */
  limit?: number;
  /** Opaque: the `nextCursor` of the previous page. */
  cursor?: string;
}

/** Tails of the caller's domain in ascending service tail id order. */
export interface TailListPage {
  items: TailView[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

/** One event of a tail, as `GET /Tails/{mappedId}/History` shows it. */
export interface TailHistoryItem {
  eventId: string;
  /** `TailCreated`, `MappingAdded`, `TailDeactivated`, `TailReactivated`, `TailRenumbered`. */
  type: string;
  occurredAt: string;
  /** The tail's version after this event (1 for `TailCreated`). */
  version: number;
  /** clientId of the service account that acted. */
  source: string;
  /** The event's own fields (e.g. `{ fromTailNumber, toTailNumber }`). */
  data: Record<string, unknown>;
}

export interface TailHistory {
  items: TailHistoryItem[];
}

/**
 * Value (JSON) of a message on `tailsync.tail-events`; the key is `<domain>:<tailId>`, so the
 * events of one tail are ordered. Delivered at least once: consumers dedupe on `eventId`.
 */
export interface TailEventMessage {
  eventId: string;
  type: string;
  domain: string;
  tailId: number;
  /** The tail's Mapped IDs (every source) after the event, oldest first. */
  mappedIds: string[];
  occurredAt: string;
  /** The event's own fields, including `actor` (clientId of the acting service account). */
  data: Record<string, unknown>;
  /** The event's global position in the event store (opaque string, ordered per tail). */
  position: string;
}

/** Kafka message key of a tail event. */
export function tailEventKey(domain: string, tailId: number): string {
  return `${domain}:${tailId}`;
}
