// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


export interface ListTailsRequest {
  /**
   * "active" | "inactive".
   */
  'status'?: (string);
  'tailNumber'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_status'?: "status";
  '_tailNumber'?: "tailNumber";
  '_limit'?: "limit";
  '_cursor'?: "cursor";
}

export interface ListTailsRequest__Output {
  /**
   * "active" | "inactive".
   */
  'status'?: (string);
  'tailNumber'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_status'?: "status";
  '_tailNumber'?: "tailNumber";
  '_limit'?: "limit";
  '_cursor'?: "cursor";
}
