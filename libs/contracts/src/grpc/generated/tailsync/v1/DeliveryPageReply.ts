// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { DeliveryPage as _tailsync_v1_DeliveryPage, DeliveryPage__Output as _tailsync_v1_DeliveryPage__Output } from '../../tailsync/v1/DeliveryPage';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface DeliveryPageReply {
  'page'?: (_tailsync_v1_DeliveryPage | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "page"|"problem";
}

export interface DeliveryPageReply__Output {
  'page'?: (_tailsync_v1_DeliveryPage__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "page"|"problem";
}
