// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { Long } from '@grpc/proto-loader';

export interface RecoverDeliveriesResult {
  'recoveryId'?: (string);
  'deliveries'?: (number | string | Long);
}

export interface RecoverDeliveriesResult__Output {
  'recoveryId': (string);
  'deliveries': (number);
}
