// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailPage as _tailsync_v1_TailPage, TailPage__Output as _tailsync_v1_TailPage__Output } from '../../tailsync/v1/TailPage';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface TailPageReply {
  'page'?: (_tailsync_v1_TailPage | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "page"|"problem";
}

export interface TailPageReply__Output {
  'page'?: (_tailsync_v1_TailPage__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "page"|"problem";
}
