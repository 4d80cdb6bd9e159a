// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


export interface ChangeTailNumberRequest {
  'mappedId'?: (string);
  'newTailNumber'?: (string);
}

export interface ChangeTailNumberRequest__Output {
  'mappedId': (string);
  'newTailNumber': (string);
}
