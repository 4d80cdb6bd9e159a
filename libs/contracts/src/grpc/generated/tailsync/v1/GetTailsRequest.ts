// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailReference as _tailsync_v1_TailReference, TailReference__Output as _tailsync_v1_TailReference__Output } from '../../tailsync/v1/TailReference';

export interface GetTailsRequest {
  'tails'?: (_tailsync_v1_TailReference)[];
}

export interface GetTailsRequest__Output {
  'tails': (_tailsync_v1_TailReference__Output)[];
}
