// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface ListEventsRequest {
  /**
   * The iterator of the previous page; absent: from the oldest event kept.
   */
  'after'?: (string);
  'limit'?: (number);
  '_after'?: "after";
  '_limit'?: "limit";
}

export interface ListEventsRequest__Output {
  /**
   * The iterator of the previous page; absent: from the oldest event kept.
   */
  'after'?: (string);
  'limit'?: (number);
  '_after'?: "after";
  '_limit'?: "limit";
}
