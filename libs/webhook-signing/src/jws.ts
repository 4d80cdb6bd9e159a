import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The parts of a compact JWS (`header.payload.signature`, base64url) that the verifier reads.
 * HS256 is an HMAC over the first two segments, so node:crypto is all it takes: the package stays
 * free of dependencies, and the same few lines are in the Python package.
 * @internal
 */
export interface CompactJws {
  signingInput: string;
  header: unknown;
  payloadSegment: string;
  signature: Buffer;
}

export const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** @internal The token's parts; `undefined` when it is not three base64url segments. */
export function splitJws(token: string): CompactJws | undefined {
  if (!JWS_COMPACT.test(token)) return undefined;
  const [header, payload, signature] = token.split('.');
  return { signingInput: `${header}.${payload}`, header: decodeJsonSegment(header), payloadSegment: payload, signature: Buffer.from(signature, 'base64url') };
}

/** @internal The JSON a base64url segment holds, or `undefined` when it holds none. */
export function decodeJsonSegment(segment: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(segment, 'base64url')));
  } catch {
    return undefined;
  }
}

/** @internal Whether the HS256 signature over the signing input is the one `secret` (its UTF-8 bytes) makes. */
export function hs256Matches(jws: CompactJws, secret: string): boolean {
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(jws.signingInput, 'ascii').digest();
  return expected.length === jws.signature.length && timingSafeEqual(expected, jws.signature);
}
