// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface AttentionSubscription {
  'domain'?: (string);
  'url'?: (string);
  'status'?: (string);
  'disabledReason'?: (string);
  'failedDeliveriesInARow'?: (number);
  'lastFailureAt'?: (string);
  '_disabledReason'?: "disabledReason";
  '_lastFailureAt'?: "lastFailureAt";
}

export interface AttentionSubscription__Output {
  'domain': (string);
  'url': (string);
  'status': (string);
  'disabledReason'?: (string);
  'failedDeliveriesInARow': (number);
  'lastFailureAt'?: (string);
  '_disabledReason'?: "disabledReason";
  '_lastFailureAt'?: "lastFailureAt";
}
