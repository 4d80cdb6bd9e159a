// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


/**
 * A tail by the caller's Mapped ID.
 */
export interface TailReference {
  'mappedId'?: (string);
}

/**
 * A tail by the caller's Mapped ID.
 */
export interface TailReference__Output {
  'mappedId': (string);
}
