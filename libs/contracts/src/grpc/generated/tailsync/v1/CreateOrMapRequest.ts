// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailSubmission as _tailsync_v1_TailSubmission, TailSubmission__Output as _tailsync_v1_TailSubmission__Output } from '../../tailsync/v1/TailSubmission';

export interface CreateOrMapRequest {
  'tails'?: (_tailsync_v1_TailSubmission)[];
}

export interface CreateOrMapRequest__Output {
  'tails': (_tailsync_v1_TailSubmission__Output)[];
}
