/**
 * Tail numbers are stored trimmed and compared case-insensitively within a domain.
 */

/** The tail number as stored: surrounding whitespace removed, case kept. */
export function trimTailNumber(tailNumber: string): string {
  return tailNumber.trim();
}

/** The comparison key of a tail number: trimmed and upper-cased. Two numbers with equal keys are the same number. */
export function tailNumberKey(tailNumber: string): string {
  return tailNumber.trim().toUpperCase();
}

export function sameTailNumber(a: string, b: string): boolean {
  return tailNumberKey(a) === tailNumberKey(b);
}
