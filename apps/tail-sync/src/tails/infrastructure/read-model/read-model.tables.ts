import { inSchema } from '@tailsync/service-kit';

/** The read model's tables (made by tail-sync's migrations), as SQL names them. */
export interface ReadModelTables {
  /**
   * Names where the tables are in the names of the readers' locks: `rm_` (the name earlier
   * versions used), or `<schema>.rm_`, so readers of tables in other schemas (specs) never share a lock.
   */
  lockScope: string;
  tails: string;
  mappings: string;
  checkpoints: string;
  /** The one-row table naming the event store log the checkpoints belong to. */
  eventLog: string;
}

/** The tables in `schema`, or unqualified (the connection's `search_path`) when it is undefined. */
export function readModelTables(schema?: string): ReadModelTables {
  return {
    lockScope: schema ? `${schema}.rm_` : 'rm_',
    tails: inSchema(schema, 'rm_tails'),
    mappings: inSchema(schema, 'rm_tail_mappings'),
    checkpoints: inSchema(schema, 'rm_checkpoints'),
    eventLog: inSchema(schema, 'rm_event_log'),
  };
}
