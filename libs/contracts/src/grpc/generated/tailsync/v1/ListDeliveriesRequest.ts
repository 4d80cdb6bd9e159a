// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface ListDeliveriesRequest {
  /**
   * "pending" | "delivered" | "failed" | "skipped".
   */
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'eventId'?: (string);
  'since'?: (string);
  'until'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_cursor'?: "cursor";
  '_eventId'?: "eventId";
  '_since'?: "since";
  '_until'?: "until";
}

export interface ListDeliveriesRequest__Output {
  /**
   * "pending" | "delivered" | "failed" | "skipped".
   */
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'eventId'?: (string);
  'since'?: (string);
  'until'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_cursor'?: "cursor";
  '_eventId'?: "eventId";
  '_since'?: "since";
  '_until'?: "until";
}
