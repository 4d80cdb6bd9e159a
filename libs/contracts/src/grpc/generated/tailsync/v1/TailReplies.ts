// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailReply as _tailsync_v1_TailReply, TailReply__Output as _tailsync_v1_TailReply__Output } from '../../tailsync/v1/TailReply';

/**
 * One reply per requested tail, in the order requested.
 */
export interface TailReplies {
  'replies'?: (_tailsync_v1_TailReply)[];
}

/**
 * One reply per requested tail, in the order requested.
 */
export interface TailReplies__Output {
  'replies': (_tailsync_v1_TailReply__Output)[];
}
