import type { Pool } from 'pg';

/**
 * The tables, columns, constraints, indexes and sequences of `schema`, one line each, sorted and
 * without the schema's name: two schemas made the same way have equal layouts.
 */
export async function schemaLayout(pool: Pool, schema: string): Promise<Record<'columns' | 'constraints' | 'indexes' | 'sequences', string[]>> {
  const lines = async (sql: string) => (await pool.query<{ line: string }>(sql, [schema])).rows.map((r) => r.line.replaceAll(`${schema}.`, ''));
  return {
    columns: await lines(`
      select c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
             || case when a.attnotnull then ' not null' else '' end || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') as line
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where n.nspname = $1 and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
       order by 1`),
    constraints: await lines(`
      select c.relname || ' ' || k.conname || ': ' || pg_get_constraintdef(k.oid) as line
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 order by 1`),
    indexes: await lines(`select tablename || ' ' || indexname || ': ' || regexp_replace(indexdef, '^.* USING ', '') as line from pg_indexes where schemaname = $1 order by 1`),
    sequences: await lines(`
      select sequencename || ' ' || data_type || ' ' || start_value || '..' || max_value || ' by ' || increment_by as line
        from pg_sequences where schemaname = $1 order by 1`),
  };
}
