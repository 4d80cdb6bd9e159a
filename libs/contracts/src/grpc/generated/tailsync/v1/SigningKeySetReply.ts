// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { SigningKeySet as _tailsync_v1_SigningKeySet, SigningKeySet__Output as _tailsync_v1_SigningKeySet__Output } from '../../tailsync/v1/SigningKeySet';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface SigningKeySetReply {
  'keySet'?: (_tailsync_v1_SigningKeySet | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "keySet"|"problem";
}

export interface SigningKeySetReply__Output {
  'keySet'?: (_tailsync_v1_SigningKeySet__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "keySet"|"problem";
}
