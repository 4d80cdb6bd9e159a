import { ValidationProblem } from '../problems/domain/problem';
import { firstStringPath } from './first-string-path';

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, so a request carrying it would fail where it
 * is written (a 500). It is refused up front instead, as bad input: in the URL (encoded `%00`)
 * and anywhere in a JSON body (escaped `\u0000`; JSON has no raw control characters).
 */
export const NUL_MESSAGE = 'Text must not contain the character U+0000.';

/** A 400 problem for a URL holding an encoded U+0000, else null. */
export function nulInUrl(url: string): ValidationProblem | null {
  return /%00/i.test(url) ? new ValidationProblem({}, [`The URL must not contain the character U+0000.`]) : null;
}

/** A 400 problem naming the first key or string of a parsed JSON body that holds U+0000, else null. */
export function nulInJson(raw: string, value: unknown): ValidationProblem | null {
  // The walk runs only when the text has the escape at all (it never does in ordinary traffic).
  if (!raw.includes('\\u0000')) return null;
  const path = firstStringPath(value, (text) => text.includes('\0'));
  return path === null ? null : new ValidationProblem({ [path || 'body']: [NUL_MESSAGE] });
}
