// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface BackfillRequest {
  'backfillId'?: (string);
}

export interface BackfillRequest__Output {
  'backfillId': (string);
}
