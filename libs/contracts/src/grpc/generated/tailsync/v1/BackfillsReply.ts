// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { BackfillList as _tailsync_v1_BackfillList, BackfillList__Output as _tailsync_v1_BackfillList__Output } from '../../tailsync/v1/BackfillList';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface BackfillsReply {
  'backfills'?: (_tailsync_v1_BackfillList | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "backfills"|"problem";
}

export interface BackfillsReply__Output {
  'backfills'?: (_tailsync_v1_BackfillList__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "backfills"|"problem";
}
