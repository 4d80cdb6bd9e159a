import type { StoredEvent } from '../event-store.port';

/** The events of one insert statement, as the adapter sent them. */
export interface AppendedBatch {
  /** The writing transaction's id (`xid8`, decimal). */
  tx: string;
  /** `position` of each event, in the order of the other arrays. */
  positions: string[];
  streamIds: string[];
  versions: number[];
  /** Lower-cased, as stored. */
  eventIds: string[];
  types: string[];
  /** The statement's `data` and `metadata` parameters: one JSON array each, parsed on first use. */
  dataJson: string;
  metadataJson: string;
  /** The transaction's `now()`, the column's default. */
  recordedAt: Date;
}

/** Transactions a read asks about at most (each row is compared with them). */
const MAX_TRANSACTIONS = 32;

interface Entry {
  batch: AppendedBatch;
  index: number;
}

/** Parsed `data` / `metadata` arrays of a batch (parsed once, when its first event is taken). */
const parsedArrays = new WeakMap<AppendedBatch, { data: Record<string, unknown>[]; metadata: Record<string, unknown>[] }>();

/**
 * Events this process appended, kept until a `readAll` returns them, so that the read fetches
 * only their positions and ids instead of every column (after each write the projection and
 * the relay read the new events back: their rows, JSON and dates were most of that read's cost).
 *
 * - Keyed by `"<tx>:<position>"`, which never repeats in a cluster (`xid8` does not wrap). The
 *   read still returns each row's event id, and an entry is used only if its id matches.
 * - An entry is handed out once, then dropped: what a reader keeps, it keeps itself, and events
 *   read again (another reader, a rebuild) come from the table.
 * - Entries of transactions that rolled back are never asked for; the oldest entries are dropped
 *   beyond `maxEvents`.
 * - `data` and `metadata` come from the JSON the statement sent: equal to what the table returns,
 *   except for the order of object keys (`jsonb` sorts them).
 */
export class AppendedEvents {
  private readonly entries = new Map<string, Entry>();
  /** Entries left per transaction (the read asks the table for those transactions' ids only). */
  private readonly perTx = new Map<string, number>();

  constructor(private readonly maxEvents: number) {}

  /**
   * The newest transactions (at most `MAX_TRANSACTIONS`) with events kept, from `tx` on (a read
   * after a checkpoint in `tx` returns no older one); empty when there is nothing to serve.
   */
  transactionsFrom(tx: bigint): string[] {
    const out: string[] = [];
    for (const kept of this.perTx.keys()) if (BigInt(kept) >= tx) out.push(kept);
    return out.slice(-MAX_TRANSACTIONS);
  }

  remember(batch: AppendedBatch): void {
    if (this.maxEvents <= 0 || batch.positions.length === 0) return;
    batch.positions.forEach((position, index) => this.entries.set(`${batch.tx}:${position}`, { batch, index }));
    this.perTx.set(batch.tx, (this.perTx.get(batch.tx) ?? 0) + batch.positions.length);
    // Map iteration is insertion order: the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEvents) break;
      this.drop(key, this.entries.get(key)!);
    }
  }

  /** The event at `position` (`"<tx>:<position>"`) if it is kept with this id; it is no longer kept after. */
  take(position: string, eventId: string): StoredEvent | undefined {
    const entry = this.entries.get(position);
    if (!entry) return undefined;
    this.drop(position, entry);
    const { batch, index } = entry;
    if (batch.eventIds[index] !== eventId) return undefined;
    let parsed = parsedArrays.get(batch);
    if (!parsed) {
      parsed = { data: JSON.parse(batch.dataJson), metadata: JSON.parse(batch.metadataJson) };
      parsedArrays.set(batch, parsed);
    }
    return {
      streamId: batch.streamIds[index],
      version: batch.versions[index],
      eventId,
      type: batch.types[index],
      data: parsed.data[index],
      metadata: parsed.metadata[index],
      recordedAt: new Date(batch.recordedAt.getTime()),
      position,
    };
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    const left = (this.perTx.get(entry.batch.tx) ?? 1) - 1;
    if (left > 0) this.perTx.set(entry.batch.tx, left);
    else this.perTx.delete(entry.batch.tx);
  }
}
