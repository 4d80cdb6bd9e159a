// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


export interface TailMapping {
  'source'?: (string);
  'mappedId'?: (string);
}

export interface TailMapping__Output {
  'source': (string);
  'mappedId': (string);
}
