// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailHistoryItem as _tailsync_v1_TailHistoryItem, TailHistoryItem__Output as _tailsync_v1_TailHistoryItem__Output } from '../../tailsync/v1/TailHistoryItem';

export interface TailHistory {
  'items'?: (_tailsync_v1_TailHistoryItem)[];
}

export interface TailHistory__Output {
  'items': (_tailsync_v1_TailHistoryItem__Output)[];
}
