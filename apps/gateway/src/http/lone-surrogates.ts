import { ValidationProblem } from '../problems/domain/problem';
import { firstStringPath } from './first-string-path';

/**
 * JSON may escape half of a UTF-16 surrogate pair on its own (`"\ud800"`); such a string has no
 * UTF-8 form, so storing it would fail (a 500) or alter it. It is invalid input under its field.
 */
export const LONE_SURROGATE_MESSAGE = 'Text must not contain a lone UTF-16 surrogate (\\uD800-\\uDFFF without its pair).';

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
// With the u flag a pair is one code point, so \p{Cs} matches only a half standing alone.
const LONE_SURROGATE = /\p{Cs}/u;

/** A 400 problem naming the first key or string of a parsed JSON body holding a lone surrogate, else null. */
export function loneSurrogateInJson(raw: string, value: unknown): ValidationProblem | null {
  // Decoded UTF-8 never holds one: only an escape can, so the walk runs only when one is present.
  if (!SURROGATE_ESCAPE.test(raw)) return null;
  const path = firstStringPath(value, (text) => LONE_SURROGATE.test(text));
  return path === null ? null : new ValidationProblem({ [path || 'body']: [LONE_SURROGATE_MESSAGE] });
}
