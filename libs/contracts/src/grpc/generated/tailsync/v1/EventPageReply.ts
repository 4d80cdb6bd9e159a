// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { EventPage as _tailsync_v1_EventPage, EventPage__Output as _tailsync_v1_EventPage__Output } from '../../tailsync/v1/EventPage';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from '../../tailsync/v1/Problem';

export interface EventPageReply {
  'page'?: (_tailsync_v1_EventPage | null);
  'problem'?: (_tailsync_v1_Problem | null);
  'result'?: "page"|"problem";
}

export interface EventPageReply__Output {
  'page'?: (_tailsync_v1_EventPage__Output | null);
  'problem'?: (_tailsync_v1_Problem__Output | null);
  'result'?: "page"|"problem";
}
