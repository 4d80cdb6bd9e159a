// Original file: libs/contracts/proto/tailsync/v1/common.proto

import type { Messages as _tailsync_v1_Messages, Messages__Output as _tailsync_v1_Messages__Output } from '../../tailsync/v1/Messages';

// Original file: libs/contracts/proto/tailsync/v1/common.proto

export const _tailsync_v1_Problem_Kind = {
  KIND_UNSPECIFIED: 'KIND_UNSPECIFIED',
  VALIDATION: 'VALIDATION',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNAVAILABLE: 'UNAVAILABLE',
} as const;

export type _tailsync_v1_Problem_Kind =
  | 'KIND_UNSPECIFIED'
  | 0
  | 'VALIDATION'
  | 1
  | 'NOT_FOUND'
  | 2
  | 'CONFLICT'
  | 3
  | 'UNAVAILABLE'
  | 4

export type _tailsync_v1_Problem_Kind__Output = typeof _tailsync_v1_Problem_Kind[keyof typeof _tailsync_v1_Problem_Kind]

/**
 * Why a service refused a request it understood. A reply carries it instead of its result; the
 * gateway answers it as the matching problem+json. Infrastructure failures use gRPC status codes
 * instead (UNAVAILABLE when a dependency of the service is down).
 */
export interface Problem {
  'kind'?: (_tailsync_v1_Problem_Kind);
  'title'?: (string);
  'detail'?: (string);
  /**
   * Field name → its messages.
   */
  'fieldErrors'?: ({[key: string]: _tailsync_v1_Messages});
  'generalErrors'?: (string)[];
}

/**
 * Why a service refused a request it understood. A reply carries it instead of its result; the
 * gateway answers it as the matching problem+json. Infrastructure failures use gRPC status codes
 * instead (UNAVAILABLE when a dependency of the service is down).
 */
export interface Problem__Output {
  'kind': (_tailsync_v1_Problem_Kind__Output);
  'title': (string);
  'detail': (string);
  /**
   * Field name → its messages.
   */
  'fieldErrors': ({[key: string]: _tailsync_v1_Messages__Output});
  'generalErrors': (string)[];
}
