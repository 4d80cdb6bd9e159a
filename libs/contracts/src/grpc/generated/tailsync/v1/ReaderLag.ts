// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { Long } from '@grpc/proto-loader';

/**
 * How far a reader of the event log is behind its head.
 */
export interface ReaderLag {
  'name'?: (string);
  'events'?: (number | string | Long);
  'capped'?: (boolean);
  'seconds'?: (number | string);
}

/**
 * How far a reader of the event log is behind its head.
 */
export interface ReaderLag__Output {
  'name': (string);
  'events': (number);
  'capped': (boolean);
  'seconds': (number);
}
