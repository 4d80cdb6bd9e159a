const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * `name` (a table or sequence) as SQL names it: in `schema`, or unqualified when `schema` is
 * undefined, i.e. wherever the connection's `search_path` finds it (where the migrations made it).
 * Only plain lower-case identifiers are accepted, as they end up in statement text.
 */
export function inSchema(schema: string | undefined, name: string): string {
  for (const part of [schema ?? name, name]) if (!IDENTIFIER.test(part)) throw new TypeError(`Invalid SQL identifier '${part}'`);
  return schema ? `"${schema}"."${name}"` : `"${name}"`;
}
