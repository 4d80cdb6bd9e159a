import type { Pool } from 'pg';
import {
  TAIL_LIST_DEFAULT_LIMIT,
  TAIL_LIST_MAX_LIMIT,
  TAIL_VIEW_STATUSES,
  type TailListPage,
  type TailListQuery,
  type TailMappingView,
  type TailView,
  type TailViewStatus,
} from '@tailsync/contracts';
import { tailNumberKey } from '../../domain/tail-number';
import { readModelTables, type ReadModelTables } from './read-model.tables';
import { propertiesOf, readColumns, type DbTailRow } from './tail-rows.columns';

export interface TailsReadModelOptions {
  /** Schema of the read-model tables (as given to the projection). Default: the connection's `search_path`. */
  schema?: string;
}

/** A list query the gateway should have refused: `field` names the query parameter. */
export class TailListQueryError extends Error {
  constructor(
    readonly field: 'status' | 'tailNumber' | 'limit' | 'cursor',
    message: string,
  ) {
    super(message);
    this.name = 'TailListQueryError';
  }
}

/** The opaque cursor after a tail: base64url of its service tail id. */
export function encodeTailCursor(tailId: number): string {
  return Buffer.from(String(tailId), 'utf8').toString('base64url');
}

/** The tail id a cursor points after, or a {@link TailListQueryError}. */
export function decodeTailCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id)) throw new TailListQueryError('cursor', 'The cursor is invalid.');
  return id;
}

/** Which tail a caller asks for: `source`'s Mapped ID in `domain`. */
export interface TailViewKey {
  readonly domain: string;
  readonly source: string;
  readonly mappedId: string;
}

/** A stored tail row (without its domain, which every query names) and its mappings. */
interface ViewRow extends Omit<DbTailRow, 'domain' | 'status'> {
  status: TailViewStatus;
  mappings: TailMappingView[] | null;
}

/**
 * Queries of the tail read model, answering in the contract's shapes. Every query is scoped to a
 * domain: another domain's tails do not exist for it. One SQL statement per query (the mappings
 * of a whole page come with it).
 */
export class TailsReadModel {
  private readonly tables: ReadModelTables;
  private readonly viewSelect: string;

  constructor(
    private readonly pool: Pool,
    opts: TailsReadModelOptions = {},
  ) {
    this.tables = readModelTables(opts.schema);
    const t = this.tables;
    this.viewSelect = `
      select ${readColumns('t', ['domain'])}, mm.mappings
        from ${t.tails} t
        left join lateral (
          select json_agg(json_build_object('source', m.source, 'mappedId', m.mapped_id)
                          order by m.added_version, m.source, m.mapped_id) as mappings
            from ${t.mappings} m
           where m.tail_id = t.tail_id and m.domain = t.domain
        ) mm on true`;
  }

  /** The tail `source` maps under `mappedId` in `domain`, or `null`. */
  async getByMappedId(domain: string, source: string, mappedId: string): Promise<TailView | null> {
    const t = this.tables;
    const { rows } = await this.pool.query<ViewRow>(
      `${this.viewSelect}
        where t.domain = $1
          and t.tail_id = (select k.tail_id from ${t.mappings} k where k.domain = $1 and k.source = $2 and k.mapped_id = $3)`,
      [domain, source, mappedId],
    );
    return rows[0] ? toView(rows[0], source) : null;
  }

  /**
   * Several tails by Mapped ID in one statement, each key in its own domain, answered in the keys'
   * order (`null` where none). Costs PostgreSQL one statement where `keys.length` would cost as many.
   */
  async getManyByMappedId(keys: readonly TailViewKey[]): Promise<(TailView | null)[]> {
    const t = this.tables;
    const { rows } = await this.pool.query<ViewRow & { at: string }>(
      `select w.at, v.*
         from unnest($1::text[], $2::text[], $3::text[]) with ordinality as w(domain, source, mapped_id, at)
         join ${t.mappings} k on k.domain = w.domain and k.source = w.source and k.mapped_id = w.mapped_id
         join lateral (${this.viewSelect} where t.domain = w.domain and t.tail_id = k.tail_id) v on true`,
      [keys.map((k) => k.domain), keys.map((k) => k.source), keys.map((k) => k.mappedId)],
    );
    const views: (TailView | null)[] = keys.map(() => null);
    for (const row of rows) {
      const i = Number(row.at) - 1;
      views[i] = toView(row, keys[i].source);
    }
    return views;
  }

  /** A tail of `domain` by its service id, or `null` (`mappedId` is `source`'s, when given). */
  async getByTailId(domain: string, tailId: number, source?: string): Promise<TailView | null> {
    if (!Number.isSafeInteger(tailId) || tailId <= 0) return null;
    const { rows } = await this.pool.query<ViewRow>(`${this.viewSelect} where t.domain = $1 and t.tail_id = $2`, [domain, tailId]);
    return rows[0] ? toView(rows[0], source) : null;
  }

  /**
   * The domain's tails in ascending service id order, keyset-paginated. `tailNumber` matches the
   * trimmed number case-insensitively. Throws {@link TailListQueryError} on a bad query.
   */
  async list(domain: string, source: string, query: TailListQuery = {}): Promise<TailListPage> {
    const limit = query.limit ?? TAIL_LIST_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > TAIL_LIST_MAX_LIMIT) {
      throw new TailListQueryError('limit', `The limit must be an integer from 1 to ${TAIL_LIST_MAX_LIMIT}.`);
    }
    if (query.status !== undefined && !TAIL_VIEW_STATUSES.includes(query.status)) {
      throw new TailListQueryError('status', `The status must be one of: ${TAIL_VIEW_STATUSES.join(', ')}.`);
    }
    if (query.tailNumber !== undefined && typeof query.tailNumber !== 'string') {
      throw new TailListQueryError('tailNumber', 'The tail number must be a string.');
    }
    const after = query.cursor === undefined || query.cursor === '' ? 0 : decodeTailCursor(query.cursor);
    const numberKey = query.tailNumber === undefined ? null : tailNumberKey(query.tailNumber);

    const { rows } = await this.pool.query<ViewRow>(
      `${this.viewSelect}
        where t.domain = $1
          and t.tail_id > $2
          and ($3::text is null or t.status = $3)
          and ($4::text is null or t.tail_number_key = $4)
        order by t.tail_id
        limit $5`,
      [domain, after, query.status ?? null, numberKey, limit + 1],
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    return {
      items: page.map((r) => toView(r, source)),
      nextCursor: more ? encodeTailCursor(Number(page[page.length - 1].tail_id)) : null,
    };
  }
}

function toView(r: ViewRow, source: string | undefined): TailView {
  const mappings = r.mappings ?? [];
  return {
    tailId: Number(r.tail_id),
    mappedId: (source !== undefined ? mappings.find((m) => m.source === source)?.mappedId : undefined) ?? null,
    tailNumber: r.tail_number,
    ...propertiesOf(r),
    status: r.status,
    mappings: mappings.map((m) => ({ source: m.source, mappedId: m.mappedId })),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    version: r.version,
  };
}
