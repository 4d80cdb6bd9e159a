// Original file: libs/contracts/proto/tailsync/v1/common.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One count of one domain in one minute (`minute`: ISO-8601 start of the minute).
 */
export interface MinuteCount {
  'minute'?: (string);
  'domain'?: (string);
  'count'?: (number | string | Long);
}

/**
 * One count of one domain in one minute (`minute`: ISO-8601 start of the minute).
 */
export interface MinuteCount__Output {
  'minute': (string);
  'domain': (string);
  'count': (number);
}
