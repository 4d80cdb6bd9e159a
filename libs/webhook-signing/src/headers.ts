/** Request headers as frameworks give them: Node's `IncomingHttpHeaders`, a plain object, or a Fetch `Headers`. */
export type HeaderSource = Record<string, string | readonly string[] | undefined> | { get(name: string): string | null };

/** @internal One header's value, looked up case-insensitively; `undefined` when absent or repeated. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === 'string') return value;
    return Array.isArray(value) && value.length === 1 ? value[0] : undefined;
  }
  return undefined;
}
