// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailView as _tailsync_v1_TailView, TailView__Output as _tailsync_v1_TailView__Output } from '../../tailsync/v1/TailView';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface TailReply {
  'tail'?: (_tailsync_v1_TailView | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "tail"|"problem";
}

export interface TailReply__Output {
  'tail'?: (_tailsync_v1_TailView__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "tail"|"problem";
}
