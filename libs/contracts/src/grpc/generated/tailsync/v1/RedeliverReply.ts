// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { RedeliverResult as _tailsync_v1_RedeliverResult, RedeliverResult__Output as _tailsync_v1_RedeliverResult__Output } from '../../tailsync/v1/RedeliverResult';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface RedeliverReply {
  'redelivery'?: (_tailsync_v1_RedeliverResult | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "redelivery"|"problem";
}

export interface RedeliverReply__Output {
  'redelivery'?: (_tailsync_v1_RedeliverResult__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "redelivery"|"problem";
}
