// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { CreateOrMapOutcomes as _tailsync_v1_CreateOrMapOutcomes, CreateOrMapOutcomes__Output as _tailsync_v1_CreateOrMapOutcomes__Output } from '../../tailsync/v1/CreateOrMapOutcomes';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface CreateOrMapReply {
  'outcomes'?: (_tailsync_v1_CreateOrMapOutcomes | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "outcomes"|"problem";
}

export interface CreateOrMapReply__Output {
  'outcomes'?: (_tailsync_v1_CreateOrMapOutcomes__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "outcomes"|"problem";
}
