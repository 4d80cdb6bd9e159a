/** An error PostgreSQL raised (it carries a five-character SQLSTATE). */
export function isDatabaseError(err: unknown): err is { code: string; constraint?: string; detail?: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** A unique violation (23505) of the constraint `constraint`. */
export function isUniqueViolation(err: unknown, constraint: string): err is { code: string; constraint: string; detail?: string } {
  return isDatabaseError(err) && err.code === '23505' && err.constraint === constraint;
}

/** The stream of a unique violation, from PostgreSQL's detail `Key (stream_id[, version])=(…) already exists.` */
export function streamIdOf(err: { detail?: string }): string | undefined {
  const detail = err.detail ?? '';
  return (/^Key \(stream_id\)=\((.*)\) already exists\.$/.exec(detail) ?? /^Key \(stream_id, version\)=\((.*), \d+\) already exists\.$/.exec(detail))?.[1];
}
