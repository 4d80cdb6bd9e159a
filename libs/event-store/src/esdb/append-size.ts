import type { NewEvent } from '../event-store.port';

/**
 * EventStoreDB's default `MaxAppendSize` (24.10, ClusterVNodeOptions.cs:157): one append whose
 * events pass it fails as a whole, `MaximumAppendSizeExceeded`.
 */
export const ESDB_MAX_APPEND_SIZE = 1_048_576;

/**
 * An event's size as the server counts it against that limit, taken on the safe side: 25.1's
 * `Event.SizeOnDisk` (data + metadata + twice the type's length); 24.10's counts the data alone.
 */
export function appendedSize(e: NewEvent): number {
  return Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata ?? {})) + 2 * e.type.length;
}

/**
 * The events of one stream write in consecutive groups each within `maxBytes`, for one append each.
 * An event over the limit on its own gets a group of its own (the server then rejects it).
 */
export function withinAppendSize<T extends NewEvent>(events: T[], maxBytes: number): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let size = 0;
  for (const e of events) {
    const s = appendedSize(e);
    if (group.length > 0 && size + s > maxBytes) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(e);
    size += s;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
