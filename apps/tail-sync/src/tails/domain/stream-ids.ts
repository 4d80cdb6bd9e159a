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

const HEX = '0123456789ABCDEF';

/**
 * Percent-encodes everything but letters and digits: UTF-8 bytes as `%XX`, upper case, the marks
 * `encodeURIComponent` keeps (`-_.!~*'()`) included. Five parts per tail of a bulk call, so it is
 * one pass: ASCII from a table, other characters by `encodeURIComponent` (a lone surrogate throws).
 */
export function encodeStreamPart(part: string): string {
  let out = '';
  let from = 0; // start of the run of letters and digits not yet copied
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) continue;
    out += part.slice(from, i);
    if (c < 128) out += `%${HEX[c >> 4]}${HEX[c & 15]}`;
    else {
      const char = String.fromCodePoint(part.codePointAt(i) as number);
      out += encodeURIComponent(char);
      i += char.length - 1;
    }
    from = i + 1;
  }
  return from === 0 ? part : out + part.slice(from);
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
