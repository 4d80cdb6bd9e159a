// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { TestSubscriptionResult as _tailsync_v1_TestSubscriptionResult, TestSubscriptionResult__Output as _tailsync_v1_TestSubscriptionResult__Output } from '../../tailsync/v1/TestSubscriptionResult';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface TestSubscriptionReply {
  'test'?: (_tailsync_v1_TestSubscriptionResult | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "test"|"problem";
}

export interface TestSubscriptionReply__Output {
  'test'?: (_tailsync_v1_TestSubscriptionResult__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "test"|"problem";
}
