import type { ClientBase } from 'pg';
import type { AllCheckpoint, StoredEvent } from '@tailsync/event-store';
import type { TailState } from '../../domain/tail.state';
import type { ProjectionWriter } from '../projection-runner/projection-writer';
import type { ReadSideLogger } from '../projection-runner/read-side-logger';
import { eventsByTail, foldTailRows, type MappingRow } from './tail-rows.fold';
import { Placeholders } from './placeholders';
import { fromDb, readColumns, TAIL_ROW_COLUMNS, tailColumns, type DbTailRow } from './tail-rows.columns';
import type { ReadModelTables } from './read-model.tables';

// The statements' column lists, made once from the table of columns (tail-rows.columns.ts).
const ROW_COLUMNS = TAIL_ROW_COLUMNS.map((c) => c.name).join(', ');
const REPLACED_COLUMNS = TAIL_ROW_COLUMNS.filter((c) => c.name !== 'tail_id')
  .map((c) => `${c.name} = excluded.${c.name}`)
  .join(', ');
const READ_COLUMNS = readColumns();

interface RowsOfBatch {
  created: TailState[];
  others: TailState[];
  mappings: MappingRow[];
  checkpoint: AllCheckpoint;
}

/**
 * Writes a batch of events (any streams; only `tail-<id>` streams matter) into `rm_tails` and
 * `rm_tail_mappings`, with the projection's checkpoint, in the batch's transaction: at most 2
 * statements whatever the batch size. A tail row only moves forward (version guard), mappings are
 * inserted `on conflict do nothing`: a batch applied twice changes nothing.
 */
export class TailRowsWriter implements ProjectionWriter<StoredEvent[]> {
  constructor(
    private readonly projection: string,
    private readonly tables: ReadModelTables,
    private readonly logger: ReadSideLogger,
  ) {}

  async prepare(events: StoredEvent[]): Promise<StoredEvent[]> {
    return events;
  }

  /** Returns the number of tail events applied. */
  async write(client: ClientBase, events: StoredEvent[], checkpoint: AllCheckpoint): Promise<number> {
    const byTail = eventsByTail(events);

    // The current rows of the touched tails (one primary-key lookup), so the version guard is exact.
    // A tail whose first event is in the batch has its whole history here: nothing to look up.
    const current = new Map<number, TailState>();
    const existing = [...byTail].filter(([, evs]) => evs.every((e) => e.version > 1));
    if (existing.length > 0) {
      // The key is (domain, tail_id). Every tail event names its tail's domain; an event of a type
      // this version does not know might not, hence the first one that does.
      const domains = existing.map(([, evs]) => String(evs.find((e) => typeof e.data.domain === 'string')?.data.domain ?? ''));
      const { rows } = await client.query<DbTailRow>(
        `select ${READ_COLUMNS} from unnest($1::text[], $2::bigint[]) as k(k_domain, k_tail_id)
           join ${this.tables.tails} t on t.domain = k.k_domain and t.tail_id = k.k_tail_id`,
        [domains, existing.map(([tailId]) => tailId)],
      );
      for (const r of rows) current.set(Number(r.tail_id), fromDb(r));
    }

    const { changed, mappings, folded } = foldTailRows(byTail, current, (message) => this.logger.warn(`Projection '${this.projection}': ${message}`));

    // Events after the stored checkpoint have never been applied (the rows and the checkpoint move
    // in one transaction), so a tail created in the batch has no row yet and its mappings none
    // either: plain inserts, a third cheaper than upserts. Rows written some other way (a
    // checkpoint deleted by hand) make them fail on a key; the batch is then written with upserts.
    const created = changed.filter((s) => !current.has(s.tailId) && byTail.get(s.tailId)![0].version === 1);
    const isCreated = new Set(created);
    const others = created.length === 0 ? changed : changed.filter((s) => !isCreated.has(s));
    let written: number[];
    if (created.length === 0 && mappings.length === 0) {
      written = await this.upsertRows(client, { created: [], others, mappings, checkpoint });
    } else {
      await client.query('savepoint projection_batch');
      try {
        written = await this.insertRows(client, { created, others, mappings, checkpoint });
      } catch (err) {
        if ((err as { code?: unknown }).code !== '23505') throw err;
        this.logger.warn(`Projection '${this.projection}': rows of events after its checkpoint already exist; applying the batch with upserts`);
        await client.query('rollback to savepoint projection_batch');
        written = await this.upsertRows(client, { created: [], others: changed, mappings, checkpoint });
      }
    }
    return written.reduce((sum, tailId) => sum + (folded.get(tailId) ?? 0), 0);
  }

  /** New tails and their mappings inserted (a key already there fails the statement). */
  private insertRows(client: ClientBase, batch: RowsOfBatch): Promise<number[]> {
    return this.writeRows(client, batch, '');
  }

  /** Mappings already there are left as they are. */
  private upsertRows(client: ClientBase, batch: RowsOfBatch): Promise<number[]> {
    return this.writeRows(client, batch, 'on conflict do nothing');
  }

  /**
   * One statement: new tails inserted, the others upserted behind the version guard, the
   * mappings (`onMappingConflict` after their insert), the checkpoint. Returns the ids of the tail
   * rows written: every inserted one (an insert that cannot write a row fails), and the upserted
   * ones the guard let through.
   */
  private async writeRows(client: ClientBase, batch: RowsOfBatch, onMappingConflict: string): Promise<number[]> {
    const t = this.tables;
    const values = new Placeholders();
    const unnested = (states: TailState[]) => `unnest(${tailColumns(states).map((column, i) => values.add(column, `${TAIL_ROW_COLUMNS[i].type}[]`)).join(', ')})`;
    const mappings = (of: (m: MappingRow) => unknown, type: string) => values.add(batch.mappings.map(of), type);
    const { rows } = await client.query<{ upserted: string[] | null }>(
      `with ins as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(batch.created)}
       ), up as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(batch.others)}
         on conflict (domain, tail_id) do update set ${REPLACED_COLUMNS}
         where ${t.tails}.version < excluded.version
         returning tail_id
       ), maps as (
         insert into ${t.mappings} (domain, source, mapped_id, tail_id, added_version)
         select * from unnest(${mappings((m) => m.domain, 'text[]')}, ${mappings((m) => m.source, 'text[]')}, ${mappings((m) => m.mappedId, 'text[]')},
                              ${mappings((m) => m.tailId, 'bigint[]')}, ${mappings((m) => m.addedVersion, 'int[]')})
         ${onMappingConflict}
         returning 1
       ), cp as (
         insert into ${t.checkpoints} (name, checkpoint, updated_at) values (${values.add(this.projection)}, ${values.add(batch.checkpoint.value)}, now())
         on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at
         returning 1
       )
       select array(select tail_id from up)::text[] as upserted, (select count(*) from maps)::int as mappings, (select count(*) from cp)::int as cp`,
      values.list,
    );
    return [...batch.created.map((s) => s.tailId), ...(rows[0].upserted ?? []).map(Number)];
  }
}
