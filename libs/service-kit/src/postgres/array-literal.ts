const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/**
 * The PostgreSQL array literal pg would send for an array of strings, numbers, booleans and
 * nulls (`{"a","b",NULL}`), built in one pass; `undefined` for any other array (nested arrays,
 * dates, buffers, objects), which pg then serialises itself.
 *
 * pg escapes every element with two regular-expression replaces, and a 1,000-tail call sends
 * ~30,000 elements (docs/performance.md, "Performance choices").
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) {
      out += 'NULL';
      continue;
    }
    let s: string;
    if (typeof v === 'string') s = v;
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') s = v.toString();
    else return undefined;
    out += NEEDS_ESCAPE.test(s) ? `"${s.replace(ESCAPED, '\\$&')}"` : `"${s}"`;
  }
  return `${out}}`;
}
