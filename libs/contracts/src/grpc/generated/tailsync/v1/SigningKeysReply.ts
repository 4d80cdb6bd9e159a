// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { SigningKeys as _tailsync_v1_SigningKeys, SigningKeys__Output as _tailsync_v1_SigningKeys__Output } from '../../tailsync/v1/SigningKeys';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface SigningKeysReply {
  'keys'?: (_tailsync_v1_SigningKeys | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "keys"|"problem";
}

export interface SigningKeysReply__Output {
  'keys'?: (_tailsync_v1_SigningKeys__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "keys"|"problem";
}
