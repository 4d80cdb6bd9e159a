// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { TestDiagnostics as _tailsync_v1_TestDiagnostics, TestDiagnostics__Output as _tailsync_v1_TestDiagnostics__Output } from '../../tailsync/v1/TestDiagnostics';

export interface TestSubscriptionResult {
  'success'?: (boolean);
  'diagnostics'?: (_tailsync_v1_TestDiagnostics | null);
}

export interface TestSubscriptionResult__Output {
  'success': (boolean);
  'diagnostics': (_tailsync_v1_TestDiagnostics__Output | null);
}
