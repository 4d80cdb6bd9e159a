// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { RecoverDeliveriesResult as _tailsync_v1_RecoverDeliveriesResult, RecoverDeliveriesResult__Output as _tailsync_v1_RecoverDeliveriesResult__Output } from '../../tailsync/v1/RecoverDeliveriesResult';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface RecoverDeliveriesReply {
  'recovery'?: (_tailsync_v1_RecoverDeliveriesResult | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "recovery"|"problem";
}

export interface RecoverDeliveriesReply__Output {
  'recovery'?: (_tailsync_v1_RecoverDeliveriesResult__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "recovery"|"problem";
}
