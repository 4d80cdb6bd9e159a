// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { MinuteCount as _tailsync_v1_MinuteCount, MinuteCount__Output as _tailsync_v1_MinuteCount__Output } from '../../tailsync/v1/MinuteCount';
import type { ReaderLag as _tailsync_v1_ReaderLag, ReaderLag__Output as _tailsync_v1_ReaderLag__Output } from '../../tailsync/v1/ReaderLag';

export interface TailActivityReply {
  'tailsWritten'?: (_tailsync_v1_MinuteCount)[];
  'lags'?: (_tailsync_v1_ReaderLag)[];
}

export interface TailActivityReply__Output {
  'tailsWritten': (_tailsync_v1_MinuteCount__Output)[];
  'lags': (_tailsync_v1_ReaderLag__Output)[];
}
