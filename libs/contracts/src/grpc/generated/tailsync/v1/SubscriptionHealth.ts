// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface SubscriptionHealth {
  'lastSuccessAt'?: (string);
  'lastFailureAt'?: (string);
  'failedDeliveriesInARow'?: (number);
  '_lastSuccessAt'?: "lastSuccessAt";
  '_lastFailureAt'?: "lastFailureAt";
}

export interface SubscriptionHealth__Output {
  'lastSuccessAt'?: (string);
  'lastFailureAt'?: (string);
  'failedDeliveriesInARow': (number);
  '_lastSuccessAt'?: "lastSuccessAt";
  '_lastFailureAt'?: "lastFailureAt";
}
