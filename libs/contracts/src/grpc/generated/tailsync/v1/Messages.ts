// Original file: libs/contracts/proto/tailsync/v1/common.proto


export interface Messages {
  'messages'?: (string)[];
}

export interface Messages__Output {
  'messages': (string)[];
}
