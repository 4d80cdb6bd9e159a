// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface RedeliverRequest {
  'id'?: (string);
}

export interface RedeliverRequest__Output {
  'id': (string);
}
