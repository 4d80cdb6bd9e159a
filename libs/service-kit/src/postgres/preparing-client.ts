import { createHash } from 'node:crypto';
import { Client, type QueryConfig } from 'pg';
import { arrayLiteral } from './array-literal';

/** Distinct statement texts prepared per process; texts beyond it (unbounded dynamic SQL) run unnamed. */
const MAX_PREPARED = 500;
const names = new Map<string, string>();

/** The name a parameterised statement is prepared under: one per distinct text. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = `ts_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

function isQueryConfig(value: unknown): value is QueryConfig {
  return typeof value === 'object' && value !== null && typeof (value as QueryConfig).text === 'string' && typeof (value as { submit?: unknown }).submit !== 'function';
}

/** Array parameters as their literals (see {@link arrayLiteral}); anything else as given. */
function withArrayLiterals(values: unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Array.isArray(v)) continue;
    const literal = arrayLiteral(v);
    if (literal === undefined) continue;
    out ??= [...values];
    out[i] = literal;
  }
  return out ?? values;
}

/**
 * A pg client that prepares every statement with parameters once per connection, under a name
 * derived from its text, so PostgreSQL parses it once (docs/performance.md, "Performance
 * choices"). Array parameters are serialised by {@link arrayLiteral}.
 */
export class PreparingClient extends Client {
  // pg's `query` has many overloads; this one names the statement and hands everything on.
  override query(...args: unknown[]): never {
    const [first, second] = args;
    if (typeof first === 'string' && Array.isArray(second)) {
      const name = statementName(first);
      const values = withArrayLiterals(second);
      if (name) args.splice(0, 2, { name, text: first, values });
      else args[1] = values;
    } else if (isQueryConfig(first) && Array.isArray(first.values)) {
      const name = first.name ?? statementName(first.text);
      args[0] = { ...first, values: withArrayLiterals(first.values), ...(name ? { name } : {}) };
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
