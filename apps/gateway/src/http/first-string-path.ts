/**
 * The path (`tails[1].tailNumber`, `payloadToEcho.k`) of the first string or key of a parsed JSON
 * value that `holds` is true of, `''` for the value itself, or null when there is none.
 */
export function firstStringPath(value: unknown, holds: (text: string) => boolean, path = ''): string | null {
  if (typeof value === 'string') return holds(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstStringPath(value[i], holds, `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (holds(key)) return at;
      const found = firstStringPath(v, holds, at);
      if (found !== null) return found;
    }
  }
  return null;
}
