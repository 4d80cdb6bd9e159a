import type { ClientBase } from 'pg';
import type { StreamWrite } from '@tailsync/event-store';
import { tailIdOfStream } from '../../domain/stream-ids';
import type { FoldedEvent } from './tail-rows.fold';
import type { ReadModelTables } from './read-model.tables';
import { TailRowsTable } from './tail-rows.table';

/**
 * The read-model rows of the tails an append writes, written in the append's own transaction, so
 * a command answers without waiting for the projection: one statement per append (a second,
 * a primary-key lookup, when it changes existing tails). The projection reads the same events
 * later, finds their rows there and writes nothing for them.
 */
export class TailRowsInAppend {
  private readonly table: TailRowsTable;

  constructor(tables: ReadModelTables) {
    this.table = new TailRowsTable(tables);
  }

  /**
   * Writes the rows of the tails in `writes` as they are after them. Returns false, having written
   * nothing, when a changed tail's row is not at the version the write was decided on (the
   * projection has not applied its earlier events yet): the projection will, and the command waits
   * for it as before.
   */
  async write(client: ClientBase, writes: StreamWrite[]): Promise<boolean> {
    const byTail = new Map<number, FoldedEvent[]>();
    const expected = new Map<number, number>();
    for (const w of writes) {
      const tailId = tailIdOfStream(w.streamId);
      if (tailId === null || w.events.length === 0) continue;
      if (w.expectedVersion === 'any') return false;
      const from = w.expectedVersion;
      expected.set(tailId, from);
      byTail.set(
        tailId,
        w.events.map((e, i) => ({ streamId: w.streamId, version: from + i + 1, type: e.type, data: e.data })),
      );
    }
    if (byTail.size === 0) return true;
    // A new tail has no row yet (its events are not committed): only changed tails are looked up.
    const changed = new Map([...byTail].filter(([tailId]) => expected.get(tailId)! > 0));
    const current = await this.table.current(client, changed);
    for (const tailId of changed.keys()) if (current.get(tailId)?.version !== expected.get(tailId)) return false;
    // Events this version wrote itself: the fold has nothing to warn about.
    await this.table.apply(client, byTail, current, () => undefined);
    return true;
  }
}
