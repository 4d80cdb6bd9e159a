// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailHistory as _tailsync_v1_TailHistory, TailHistory__Output as _tailsync_v1_TailHistory__Output } from '../../tailsync/v1/TailHistory';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface TailHistoryReply {
  'history'?: (_tailsync_v1_TailHistory | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "history"|"problem";
}

export interface TailHistoryReply__Output {
  'history'?: (_tailsync_v1_TailHistory__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "history"|"problem";
}
