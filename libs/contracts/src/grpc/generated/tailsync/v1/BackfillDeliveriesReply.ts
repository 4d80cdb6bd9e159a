// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { BackfillDeliveriesResult as _tailsync_v1_BackfillDeliveriesResult, BackfillDeliveriesResult__Output as _tailsync_v1_BackfillDeliveriesResult__Output } from '../../tailsync/v1/BackfillDeliveriesResult';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface BackfillDeliveriesReply {
  'backfill'?: (_tailsync_v1_BackfillDeliveriesResult | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "backfill"|"problem";
}

export interface BackfillDeliveriesReply__Output {
  'backfill'?: (_tailsync_v1_BackfillDeliveriesResult__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "backfill"|"problem";
}
