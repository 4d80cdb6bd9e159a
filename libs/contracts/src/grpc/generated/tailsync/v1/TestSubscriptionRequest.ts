// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface TestSubscriptionRequest {
  /**
   * The JSON object to send as the body, exactly.
   */
  'payloadJson'?: (string);
}

export interface TestSubscriptionRequest__Output {
  /**
   * The JSON object to send as the body, exactly.
   */
  'payloadJson': (string);
}
