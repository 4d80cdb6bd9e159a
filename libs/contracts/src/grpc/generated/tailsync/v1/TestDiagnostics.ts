// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Long } from '@grpc/proto-loader';

export interface TestDiagnostics {
  'url'?: (string);
  'statusCode'?: (number);
  'durationMs'?: (number | string | Long);
  'error'?: (string);
  'responseBodySnippet'?: (string);
  '_statusCode'?: "statusCode";
  '_error'?: "error";
  '_responseBodySnippet'?: "responseBodySnippet";
}

export interface TestDiagnostics__Output {
  'url': (string);
  'statusCode'?: (number);
  'durationMs': (number);
  'error'?: (string);
  'responseBodySnippet'?: (string);
  '_statusCode'?: "statusCode";
  '_error'?: "error";
  '_responseBodySnippet'?: "responseBodySnippet";
}
