// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Long } from '@grpc/proto-loader';

export interface BackfillView {
  'backfillId'?: (string);
  'since'?: (string);
  /**
   * "queued" | "running" | "done" | "failed" | "cancelled".
   */
  'state'?: (string);
  'eventsFound'?: (number | string | Long);
  'eventsStored'?: (number | string | Long);
  'startedAt'?: (string);
  'finishedAt'?: (string);
  '_startedAt'?: "startedAt";
  '_finishedAt'?: "finishedAt";
}

export interface BackfillView__Output {
  'backfillId': (string);
  'since': (string);
  /**
   * "queued" | "running" | "done" | "failed" | "cancelled".
   */
  'state': (string);
  'eventsFound': (number);
  'eventsStored': (number);
  'startedAt'?: (string);
  'finishedAt'?: (string);
  '_startedAt'?: "startedAt";
  '_finishedAt'?: "finishedAt";
}
