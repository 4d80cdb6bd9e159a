// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface BackfillDeliveriesRequest {
  'since'?: (string);
}

export interface BackfillDeliveriesRequest__Output {
  'since': (string);
}
