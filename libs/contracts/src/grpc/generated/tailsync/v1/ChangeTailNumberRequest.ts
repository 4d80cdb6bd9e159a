// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


export interface ChangeTailNumberRequest {
  'tailId'?: (string);
  'newTailNumber'?: (string);
}

export interface ChangeTailNumberRequest__Output {
  'tailId': (string);
  'newTailNumber': (string);
}
