// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailReplies as _tailsync_v1_TailReplies, TailReplies__Output as _tailsync_v1_TailReplies__Output } from '../../tailsync/v1/TailReplies';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface GetTailsReply {
  'replies'?: (_tailsync_v1_TailReplies | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "replies"|"problem";
}

export interface GetTailsReply__Output {
  'replies'?: (_tailsync_v1_TailReplies__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "replies"|"problem";
}
