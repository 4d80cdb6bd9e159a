import type { ClientBase } from 'pg';
import type { AllCheckpoint, StoredEvent } from '@tailsync/event-store';
import type { ProjectionWriter } from '../projection-runner/projection-writer';
import type { ReadSideLogger } from '../projection-runner/read-side-logger';
import { eventsByTail } from './tail-rows.fold';
import type { ReadModelTables } from './read-model.tables';
import { TailRowsTable } from './tail-rows.table';

/**
 * Writes a batch of events (any streams; only `tail-<id>` streams matter) into `rm_tails` and
 * `rm_tail_mappings`, with the projection's checkpoint, in the batch's transaction: 2 statements
 * whatever the batch size (`TailRowsTable`). Most rows are already there, written by the appends
 * themselves (`TailRowsInAppend`): the touched rows are read first and the fold skips the events
 * they have, so those rows are not written again, and a batch applied twice changes nothing.
 */
export class TailRowsWriter implements ProjectionWriter<StoredEvent[]> {
  private readonly table: TailRowsTable;

  constructor(
    private readonly projection: string,
    tables: ReadModelTables,
    private readonly logger: ReadSideLogger,
  ) {
    this.table = new TailRowsTable(tables);
  }

  async prepare(events: StoredEvent[]): Promise<StoredEvent[]> {
    return events;
  }

  /** Returns the number of tail events applied. */
  async write(client: ClientBase, events: StoredEvent[], checkpoint: AllCheckpoint): Promise<number> {
    const byTail = eventsByTail(events);
    const current = await this.table.current(client, byTail);
    const warn = (message: string) => this.logger.warn(`Projection '${this.projection}': ${message}`);
    return this.table.apply(client, byTail, current, warn, { reader: this.projection, checkpoint });
  }
}
