// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface RecoverDeliveriesRequest {
  'since'?: (string);
  'until'?: (string);
  '_until'?: "until";
}

export interface RecoverDeliveriesRequest__Output {
  'since': (string);
  'until'?: (string);
  '_until'?: "until";
}
