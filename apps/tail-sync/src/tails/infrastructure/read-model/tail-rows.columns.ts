import { TAIL_PROPERTIES, TAIL_PROPERTY_KINDS, type TailProperties } from '@tailsync/contracts';
import { tailNumberKey } from '../../domain/tail-number';
import type { TailState } from '../../domain/tail.state';

// How a tail's state maps to the columns of `<prefix>tails`, both ways: one table of columns,
// from which the projection's statements and the read model's select are made.

/** A column of `<prefix>tails`: its SQL element type and its value in a tail's state. */
interface TailColumn {
  name: string;
  type: 'bigint' | 'text' | 'int' | 'timestamptz';
  of: (state: TailState) => unknown;
}

/** The optional properties' columns, from the table of tail properties (libs/contracts). */
const PROPERTY_COLUMNS = TAIL_PROPERTIES.map(({ name, column, value }) => ({ key: name, name: column, type: TAIL_PROPERTY_KINDS[value.kind].sql }));

/** Every column of a tail row, in the order the projection writes them. */
export const TAIL_ROW_COLUMNS: readonly TailColumn[] = [
  { name: 'tail_id', type: 'bigint', of: (s) => s.tailId },
  { name: 'domain', type: 'text', of: (s) => s.domain },
  { name: 'tail_number', type: 'text', of: (s) => s.tailNumber },
  { name: 'tail_number_key', type: 'text', of: (s) => tailNumberKey(s.tailNumber) },
  ...PROPERTY_COLUMNS.map(({ key, name, type }): TailColumn => ({ name, type, of: (s) => s.properties[key] })),
  { name: 'status', type: 'text', of: (s) => s.status },
  { name: 'version', type: 'int', of: (s) => s.version },
  { name: 'created_at', type: 'timestamptz', of: (s) => s.createdAt },
  { name: 'updated_at', type: 'timestamptz', of: (s) => s.updatedAt },
];

/** Tail rows as one array per column, in the order of {@link TAIL_ROW_COLUMNS}. */
export function tailColumns(states: TailState[]): unknown[][] {
  return TAIL_ROW_COLUMNS.map((column) => states.map(column.of));
}

/**
 * The select list of a read of rows (`alias.` before each column when given, `except` left out):
 * every column but the search key, which is the tail number's; ids as text.
 */
export function readColumns(alias = '', except: readonly string[] = []): string {
  const prefix = alias ? `${alias}.` : '';
  return TAIL_ROW_COLUMNS.filter((c) => c.name !== 'tail_number_key' && !except.includes(c.name))
    .map((c) => (c.type === 'bigint' ? `${prefix}${c.name}::text as ${c.name}` : `${prefix}${c.name}`))
    .join(', ');
}

/** A stored row; its property columns ({@link propertiesOf}) by the names of the table above. */
export interface DbTailRow {
  tail_id: string;
  domain: string;
  tail_number: string;
  status: 'active' | 'inactive';
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** The optional tail properties of a stored row, as the domain and the views name them. */
export function propertiesOf(r: object): TailProperties {
  const row = r as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  for (const { key, name } of PROPERTY_COLUMNS) properties[key] = row[name] ?? null;
  return properties as TailProperties;
}

/** A stored row as the domain's state. Its mappings live in their own table and are not needed to fold. */
export function fromDb(r: DbTailRow): TailState {
  return {
    tailId: Number(r.tail_id),
    domain: r.domain,
    tailNumber: r.tail_number,
    properties: propertiesOf(r),
    status: r.status,
    mappings: [],
    version: r.version,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
