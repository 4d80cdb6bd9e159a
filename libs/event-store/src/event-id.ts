import { v7 } from 'uuid';

/**
 * A new event id: a UUIDv7 (RFC 9562; milliseconds first, then random bits), so ids of new events
 * sort after older ones and the PostgreSQL store's unique index on `event_id` grows at its right
 * edge instead of at a random leaf per event. Random (v4) ids made a 1,000-event insert ~20 %
 * slower on a table of 300,000 events (18 against 14.5 ms, docs/performance.md).
 */
export function newEventId(): string {
  return v7();
}
