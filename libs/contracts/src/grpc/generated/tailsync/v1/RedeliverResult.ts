// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface RedeliverResult {
  'id'?: (string);
  /**
   * Always "pending".
   */
  'status'?: (string);
}

export interface RedeliverResult__Output {
  'id': (string);
  /**
   * Always "pending".
   */
  'status': (string);
}
