// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { DeliveryView as _tailsync_v1_DeliveryView, DeliveryView__Output as _tailsync_v1_DeliveryView__Output } from '../../tailsync/v1/DeliveryView';

export interface DeliveryPage {
  'items'?: (_tailsync_v1_DeliveryView)[];
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}

export interface DeliveryPage__Output {
  'items': (_tailsync_v1_DeliveryView__Output)[];
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}
