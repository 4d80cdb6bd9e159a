// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { BackfillView as _tailsync_v1_BackfillView, BackfillView__Output as _tailsync_v1_BackfillView__Output } from '../../tailsync/v1/BackfillView';

export interface BackfillList {
  'items'?: (_tailsync_v1_BackfillView)[];
}

export interface BackfillList__Output {
  'items': (_tailsync_v1_BackfillView__Output)[];
}
