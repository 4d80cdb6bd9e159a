// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Long } from '@grpc/proto-loader';

export interface AttemptView {
  'attempt'?: (number);
  'at'?: (string);
  'statusCode'?: (number);
  'durationMs'?: (number | string | Long);
  'error'?: (string);
  'retryAfterMs'?: (number | string | Long);
  '_statusCode'?: "statusCode";
  '_error'?: "error";
  '_retryAfterMs'?: "retryAfterMs";
}

export interface AttemptView__Output {
  'attempt': (number);
  'at': (string);
  'statusCode'?: (number);
  'durationMs': (number);
  'error'?: (string);
  'retryAfterMs'?: (number);
  '_statusCode'?: "statusCode";
  '_error'?: "error";
  '_retryAfterMs'?: "retryAfterMs";
}
