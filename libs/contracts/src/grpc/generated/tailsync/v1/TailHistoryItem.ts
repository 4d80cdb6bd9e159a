// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { Long } from '@grpc/proto-loader';

export interface TailHistoryItem {
  'eventId'?: (string);
  'type'?: (string);
  'occurredAt'?: (string);
  'version'?: (number | string | Long);
  'source'?: (string);
  /**
   * The event's own fields, as a JSON object.
   */
  'dataJson'?: (string);
}

export interface TailHistoryItem__Output {
  'eventId': (string);
  'type': (string);
  'occurredAt': (string);
  'version': (number);
  'source': (string);
  /**
   * The event's own fields, as a JSON object.
   */
  'dataJson': (string);
}
