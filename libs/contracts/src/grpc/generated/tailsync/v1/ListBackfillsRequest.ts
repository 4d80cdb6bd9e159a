// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface ListBackfillsRequest {
}

export interface ListBackfillsRequest__Output {
}
