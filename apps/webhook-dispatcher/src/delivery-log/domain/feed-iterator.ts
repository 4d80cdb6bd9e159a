/**
 * Where a reader of the polling door is: the writing transaction and `seq` of the last delivery it
 * was shown (event-feed.store.ts reads in that order). Opaque to integrators: base64url text.
 */
export interface FeedPosition {
  /** The delivery's writer_xact as decimal text ('0' for rows written before the column). */
  xact: string;
  seq: string;
}

/** Before every delivery: where a reader with no iterator starts. */
export const FEED_START: FeedPosition = { xact: '0', seq: '0' };

const SHAPE = /^e1:(\d{1,20}):(\d{1,19})$/;
/** Longer text is no iterator this door handed out (the longest it makes is under 64 characters). */
const MAX_ITERATOR_LENGTH = 64;

export function encodeFeedIterator(position: FeedPosition): string {
  return Buffer.from(`e1:${position.xact}:${position.seq}`, 'utf8').toString('base64url');
}

/** The position an iterator names; undefined for text this door did not hand out. */
export function decodeFeedIterator(iterator: unknown): FeedPosition | undefined {
  if (typeof iterator !== 'string' || iterator.length === 0 || iterator.length > MAX_ITERATOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(iterator)) return undefined;
  const match = SHAPE.exec(Buffer.from(iterator, 'base64url').toString('utf8'));
  if (!match) return undefined;
  // Both are unsigned 64-bit in PostgreSQL (xid8, bigint): a larger number would fail the query.
  if (BigInt(match[1]) > 0xffff_ffff_ffff_ffffn || BigInt(match[2]) > 0x7fff_ffff_ffff_ffffn) return undefined;
  return { xact: match[1], seq: match[2] };
}
