// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface PutSubscriptionRequest {
  'eventNames'?: (string)[];
  'url'?: (string);
  /**
   * Absent: an "ed25519" subscription saved without a shared secret.
   */
  'sealedSecret'?: (string);
  /**
   * "hmac-sha256" (default) | "ed25519".
   */
  'signatureScheme'?: (string);
  '_sealedSecret'?: "sealedSecret";
  '_signatureScheme'?: "signatureScheme";
}

export interface PutSubscriptionRequest__Output {
  'eventNames': (string)[];
  'url': (string);
  /**
   * Absent: an "ed25519" subscription saved without a shared secret.
   */
  'sealedSecret'?: (string);
  /**
   * "hmac-sha256" (default) | "ed25519".
   */
  'signatureScheme'?: (string);
  '_sealedSecret'?: "sealedSecret";
  '_signatureScheme'?: "signatureScheme";
}
