// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { CreateOrMapOutcome as _tailsync_v1_CreateOrMapOutcome, CreateOrMapOutcome__Output as _tailsync_v1_CreateOrMapOutcome__Output } from '../../tailsync/v1/CreateOrMapOutcome';

export interface CreateOrMapOutcomes {
  'outcomes'?: (_tailsync_v1_CreateOrMapOutcome)[];
}

export interface CreateOrMapOutcomes__Output {
  'outcomes': (_tailsync_v1_CreateOrMapOutcome__Output)[];
}
