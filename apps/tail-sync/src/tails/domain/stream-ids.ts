import { tailNumberKey } from './tail-number';

/**
 * Event store stream names.
 *
 * - `tail-<tailId>`: the Tail aggregate (the only streams whose events are published).
 * - `tailnumber-<domain>-<NUMBER>`: reservation of a tail number within a domain (number
 *   trimmed and upper-cased, so the comparison is case-insensitive).
 * - `mappedid-<domain>-<source>-<mappedId>`: reservation of a source's Mapped ID.
 *
 * Reservation streams are appended atomically with the tail stream, with expected versions,
 * so "one Mapped ID never maps two tails" and "two tails of one domain never hold the same
 * number" hold under any concurrency. Every part is percent-encoded, including `-`, so the
 * `-` separators are unambiguous whatever the parts contain.
 */
export const TAIL_STREAM_PREFIX = 'tail-';
export const TAIL_NUMBER_STREAM_PREFIX = 'tailnumber-';
export const MAPPED_ID_STREAM_PREFIX = 'mappedid-';

const UNRESERVED = /^[A-Za-z0-9]*$/;
/** What encodeURIComponent leaves as it is, apart from letters and digits. */
const MARKS = /[-!'()*~._]/g;
const ESCAPED_MARKS: Record<string, string> = Object.fromEntries(
  [..."-!'()*~._"].map((c) => [c, `%${c.charCodeAt(0).toString(16).toUpperCase()}`]),
);

/** Percent-encodes everything but letters and digits (five parts per tail of a bulk call: kept cheap). */
export function encodeStreamPart(part: string): string {
  if (UNRESERVED.test(part)) return part;
  return encodeURIComponent(part).replace(MARKS, (c) => ESCAPED_MARKS[c]);
}

export function tailStreamId(tailId: number): string {
  return `${TAIL_STREAM_PREFIX}${tailId}`;
}

/** The tail id of a `tail-<id>` stream, or `null` for any other stream. */
export function tailIdOfStream(streamId: string): number | null {
  const m = /^tail-([1-9][0-9]*)$/.exec(streamId);
  return m ? Number(m[1]) : null;
}

export function tailNumberStreamId(domain: string, tailNumber: string): string {
  return `${TAIL_NUMBER_STREAM_PREFIX}${encodeStreamPart(domain)}-${encodeStreamPart(tailNumberKey(tailNumber))}`;
}

export function mappedIdStreamId(domain: string, source: string, mappedId: string): string {
  return `${MAPPED_ID_STREAM_PREFIX}${encodeStreamPart(domain)}-${encodeStreamPart(source)}-${encodeStreamPart(mappedId)}`;
}
