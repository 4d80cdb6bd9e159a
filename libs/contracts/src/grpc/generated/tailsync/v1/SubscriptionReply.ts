// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { SubscriptionView as _tailsync_v1_SubscriptionView, SubscriptionView__Output as _tailsync_v1_SubscriptionView__Output } from '../../tailsync/v1/SubscriptionView';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface SubscriptionReply {
  'subscription'?: (_tailsync_v1_SubscriptionView | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "subscription"|"problem";
}

export interface SubscriptionReply__Output {
  'subscription'?: (_tailsync_v1_SubscriptionView__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "subscription"|"problem";
}
