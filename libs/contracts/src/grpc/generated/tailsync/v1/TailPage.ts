// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailView as _tailsync_v1_TailView, TailView__Output as _tailsync_v1_TailView__Output } from '../../tailsync/v1/TailView';

export interface TailPage {
  'items'?: (_tailsync_v1_TailView)[];
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}

export interface TailPage__Output {
  'items': (_tailsync_v1_TailView__Output)[];
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}
