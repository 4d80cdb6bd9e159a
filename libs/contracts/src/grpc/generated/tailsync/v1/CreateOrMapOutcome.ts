// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { Messages as _tailsync_v1_Messages, Messages__Output as _tailsync_v1_Messages__Output } from '../../tailsync/v1/Messages';
import type { Long } from '@grpc/proto-loader';

/**
 * What happened to one submitted tail, or why it failed.
 */
export interface CreateOrMapOutcome {
  /**
   * "created" | "mapped" | "no-action" | "invalid".
   */
  'outcome'?: (string);
  /**
   * The service tail id; 0 when invalid.
   */
  'tailId'?: (number | string | Long);
  /**
   * Only when invalid.
   */
  'fieldErrors'?: ({[key: string]: _tailsync_v1_Messages});
}

/**
 * What happened to one submitted tail, or why it failed.
 */
export interface CreateOrMapOutcome__Output {
  /**
   * "created" | "mapped" | "no-action" | "invalid".
   */
  'outcome': (string);
  /**
   * The service tail id; 0 when invalid.
   */
  'tailId': (number);
  /**
   * Only when invalid.
   */
  'fieldErrors': ({[key: string]: _tailsync_v1_Messages__Output});
}
