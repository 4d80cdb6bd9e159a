import type { ClientBase } from 'pg';
import type { AllCheckpoint } from '@tailsync/event-store';
import type { TailState } from '../../domain/tail.state';
import { foldTailRows, type FoldedEvent, type MappingRow } from './tail-rows.fold';
import { Placeholders } from './placeholders';
import { fromDb, readColumns, TAIL_ROW_COLUMNS, tailColumns, type DbTailRow } from './tail-rows.columns';
import type { ReadModelTables } from './read-model.tables';

// The statements' column lists, made once from the table of columns (tail-rows.columns.ts).
const ROW_COLUMNS = TAIL_ROW_COLUMNS.map((c) => c.name).join(', ');
const REPLACED_COLUMNS = TAIL_ROW_COLUMNS.filter((c) => c.name !== 'tail_id')
  .map((c) => `${c.name} = excluded.${c.name}`)
  .join(', ');
const READ_COLUMNS = readColumns();

/** A reader's checkpoint, stored by the statement that writes its rows. */
export interface ReaderCheckpoint {
  reader: string;
  checkpoint: AllCheckpoint;
}

/**
 * `rm_tails` and `rm_tail_mappings` as the writers of the read model use them (the projection, and
 * an append that writes its tails' rows in its own transaction): one lookup, one write.
 *
 * Both writers write a tail's row and the mappings its events added in one statement, in the
 * transaction that made those events visible (the append's) or after reading them (the
 * projection's). So a row at version v has every mapping added up to v, and events after the
 * version of the row looked up have neither a row change nor a mapping yet: plain inserts.
 */
export class TailRowsTable {
  constructor(private readonly tables: ReadModelTables) {}

  /**
   * The rows of the tails `byTail` names (one primary-key lookup): what their events fold onto,
   * skipping the events a row already has.
   */
  async current(client: ClientBase, byTail: Map<number, FoldedEvent[]>): Promise<Map<number, TailState>> {
    const current = new Map<number, TailState>();
    const tails = [...byTail];
    if (tails.length === 0) return current;
    // The key is (domain, tail_id). Every tail event names its tail's domain; an event of a type
    // this version does not know might not, hence the first one that does.
    const domains = tails.map(([, evs]) => String(evs.find((e) => typeof e.data.domain === 'string')?.data.domain ?? ''));
    const { rows } = await client.query<DbTailRow>(
      `select ${READ_COLUMNS} from unnest($1::text[], $2::bigint[]) as k(k_domain, k_tail_id)
         join ${this.tables.tails} t on t.domain = k.k_domain and t.tail_id = k.k_tail_id`,
      [domains, tails.map(([tailId]) => tailId)],
    );
    for (const r of rows) current.set(Number(r.tail_id), fromDb(r));
    return current;
  }

  /**
   * Folds `byTail` onto the `current` rows (`tail-rows.fold.ts`) and writes the result in one
   * statement, with the reader's checkpoint when given: tails without a row inserted, the others
   * upserted behind a version guard (a row only moves forward), their new mappings inserted.
   * Returns the number of events applied: those of the rows written.
   */
  async apply(client: ClientBase, byTail: Map<number, FoldedEvent[]>, current: Map<number, TailState>, warn: (message: string) => void, stored?: ReaderCheckpoint): Promise<number> {
    const { changed, mappings, folded } = foldTailRows(byTail, current, warn);
    const created = changed.filter((s) => !current.has(s.tailId));
    const moved = changed.filter((s) => current.has(s.tailId));
    const written = await this.write(client, created, moved, mappings, stored);
    return written.reduce((sum, tailId) => sum + (folded.get(tailId) ?? 0), 0);
  }

  /** Returns the ids of the tail rows written: every inserted one (an insert that cannot write fails), and the upserted ones the guard let through. */
  private async write(client: ClientBase, created: TailState[], moved: TailState[], mappings: MappingRow[], stored?: ReaderCheckpoint): Promise<number[]> {
    const t = this.tables;
    const values = new Placeholders();
    const unnested = (states: TailState[]) => `unnest(${tailColumns(states).map((column, i) => values.add(column, `${TAIL_ROW_COLUMNS[i].type}[]`)).join(', ')})`;
    const mapped = (of: (m: MappingRow) => unknown, type: string) => values.add(mappings.map(of), type);
    const checkpoint = stored
      ? `, cp as (
         insert into ${t.checkpoints} (name, checkpoint, updated_at) values (${values.add(stored.reader)}, ${values.add(stored.checkpoint.value)}, now())
         on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at
       )`
      : '';
    const { rows } = await client.query<{ upserted: string[] | null }>(
      `with ins as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(created)}
       ), up as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(moved)}
         on conflict (domain, tail_id) do update set ${REPLACED_COLUMNS}
         where ${t.tails}.version < excluded.version
         returning tail_id
       ), maps as (
         insert into ${t.mappings} (domain, source, mapped_id, tail_id, added_version)
         select * from unnest(${mapped((m) => m.domain, 'text[]')}, ${mapped((m) => m.source, 'text[]')}, ${mapped((m) => m.mappedId, 'text[]')},
                              ${mapped((m) => m.tailId, 'bigint[]')}, ${mapped((m) => m.addedVersion, 'int[]')})
       )${checkpoint}
       select array(select tail_id from up)::text[] as upserted`,
      values.list,
    );
    return [...created.map((s) => s.tailId), ...(rows[0].upserted ?? []).map(Number)];
  }
}
