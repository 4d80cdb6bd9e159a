// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface PutSubscriptionRequest {
  'eventNames'?: (string)[];
  'url'?: (string);
  'sealedSecret'?: (string);
}

export interface PutSubscriptionRequest__Output {
  'eventNames': (string)[];
  'url': (string);
  'sealedSecret': (string);
}
