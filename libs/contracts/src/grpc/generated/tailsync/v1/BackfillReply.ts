// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { BackfillView as _tailsync_v1_BackfillView, BackfillView__Output as _tailsync_v1_BackfillView__Output } from '../../tailsync/v1/BackfillView';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface BackfillReply {
  'backfill'?: (_tailsync_v1_BackfillView | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "backfill"|"problem";
}

export interface BackfillReply__Output {
  'backfill'?: (_tailsync_v1_BackfillView__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "backfill"|"problem";
}
