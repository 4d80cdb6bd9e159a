// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


export interface CountTailsRequest {
  'domains'?: (string)[];
}

export interface CountTailsRequest__Output {
  'domains': (string)[];
}
