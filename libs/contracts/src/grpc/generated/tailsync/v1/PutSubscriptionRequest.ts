// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface PutSubscriptionRequest {
  'eventNames'?: (string)[];
  'url'?: (string);
  /**
   * "hmac-sha256" (default) | "ed25519".
   */
  'signatureScheme'?: (string);
  /**
   * Flow control across every copy: 1-1000 attempts per second, 1-100 in flight; absent: unset.
   */
  'maxPerSecond'?: (number);
  'maxInFlight'?: (number);
  /**
   * "none" (default) | "fifo": one at a time, in the order on the input topic.
   */
  'ordering'?: (string);
  /**
   * Absent: an "ed25519" subscription saved without a shared secret. In clear on the mutually
   * authenticated channel; the dispatcher seals it before it is stored.
   */
  'sharedSecret'?: (string);
  '_sharedSecret'?: "sharedSecret";
  '_signatureScheme'?: "signatureScheme";
  '_maxPerSecond'?: "maxPerSecond";
  '_maxInFlight'?: "maxInFlight";
  '_ordering'?: "ordering";
}

export interface PutSubscriptionRequest__Output {
  'eventNames': (string)[];
  'url': (string);
  /**
   * "hmac-sha256" (default) | "ed25519".
   */
  'signatureScheme'?: (string);
  /**
   * Flow control across every copy: 1-1000 attempts per second, 1-100 in flight; absent: unset.
   */
  'maxPerSecond'?: (number);
  'maxInFlight'?: (number);
  /**
   * "none" (default) | "fifo": one at a time, in the order on the input topic.
   */
  'ordering'?: (string);
  /**
   * Absent: an "ed25519" subscription saved without a shared secret. In clear on the mutually
   * authenticated channel; the dispatcher seals it before it is stored.
   */
  'sharedSecret'?: (string);
  '_sharedSecret'?: "sharedSecret";
  '_signatureScheme'?: "signatureScheme";
  '_maxPerSecond'?: "maxPerSecond";
  '_maxInFlight'?: "maxInFlight";
  '_ordering'?: "ordering";
}
