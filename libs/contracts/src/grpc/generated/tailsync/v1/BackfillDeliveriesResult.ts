// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Long } from '@grpc/proto-loader';

export interface BackfillDeliveriesResult {
  'backfillId'?: (string);
  'events'?: (number | string | Long);
}

export interface BackfillDeliveriesResult__Output {
  'backfillId': (string);
  'events': (number);
}
