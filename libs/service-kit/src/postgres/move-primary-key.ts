import type { PoolClient } from 'pg';

export interface PrimaryKeyMove {
  /** The table, as it appears in SQL (quoted / schema-qualified as needed). */
  table: string;
  /** Name of the primary-key constraint (kept). */
  constraint: string;
  /** The key's columns in the old layout: nothing happens unless the key is exactly these. */
  from: string[];
  /** The key's columns afterwards. */
  to: string[];
  /** An index the new key makes redundant (its name as it appears in SQL), dropped after the move. */
  redundantIndex?: string;
}

/** The columns of `table`'s primary key, in key order (empty when it has none). */
export async function primaryKeyColumns(client: PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ columns: string[] | null }>(
    `select array_agg(a.attname::text order by k.ord) as columns
       from pg_index i
       cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where i.indrelid = $1::regclass and i.indisprimary`,
    [table],
  );
  return rows[0]?.columns ?? [];
}

/**
 * Moves a table's primary key from the `from` columns to the `to` columns (a schema change of an
 * existing table; tables created with the new key are left alone). Run it inside a migration
 * transaction (`underMigrationLock`): the new unique index is built over the whole table while
 * the transaction holds its lock, so writes to the table wait for it. Returns true if it moved.
 */
export async function movePrimaryKey(client: PoolClient, move: PrimaryKeyMove): Promise<boolean> {
  if ((await primaryKeyColumns(client, move.table)).join(',') !== move.from.join(',')) return false;
  const building = `${move.constraint}_new`;
  await client.query(`create unique index "${building}" on ${move.table} (${move.to.map((c) => `"${c}"`).join(', ')})`);
  await client.query(
    `alter table ${move.table} drop constraint "${move.constraint}", add constraint "${move.constraint}" primary key using index "${building}"`,
  );
  if (move.redundantIndex) await client.query(`drop index if exists ${move.redundantIndex}`);
  return true;
}
