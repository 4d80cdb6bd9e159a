// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface DeleteSubscriptionReply {
  'deleted'?: (boolean);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "deleted"|"problem";
}

export interface DeleteSubscriptionReply__Output {
  'deleted'?: (boolean);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "deleted"|"problem";
}
