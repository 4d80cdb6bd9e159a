// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { SubscriptionHealth as _tailsync_v1_SubscriptionHealth, SubscriptionHealth__Output as _tailsync_v1_SubscriptionHealth__Output } from '../../tailsync/v1/SubscriptionHealth';

/**
 * The subscription as callers see it: never the secret.
 */
export interface SubscriptionView {
  'eventNames'?: (string)[];
  'url'?: (string);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  'secretUpdatedAt'?: (string);
  'previousSecretValidUntil'?: (string);
  /**
   * "active" | "disabled".
   */
  'status'?: (string);
  /**
   * "gone" | "failing" | "operator".
   */
  'disabledReason'?: (string);
  'disabledAt'?: (string);
  'health'?: (_tailsync_v1_SubscriptionHealth | null);
  /**
   * "hmac-sha256" | "ed25519".
   */
  'signatureScheme'?: (string);
  'maxPerSecond'?: (number);
  'maxInFlight'?: (number);
  /**
   * "none" | "fifo".
   */
  'ordering'?: (string);
  '_previousSecretValidUntil'?: "previousSecretValidUntil";
  '_disabledReason'?: "disabledReason";
  '_disabledAt'?: "disabledAt";
  '_maxPerSecond'?: "maxPerSecond";
  '_maxInFlight'?: "maxInFlight";
}

/**
 * The subscription as callers see it: never the secret.
 */
export interface SubscriptionView__Output {
  'eventNames': (string)[];
  'url': (string);
  'createdAt': (string);
  'updatedAt': (string);
  'secretUpdatedAt': (string);
  'previousSecretValidUntil'?: (string);
  /**
   * "active" | "disabled".
   */
  'status': (string);
  /**
   * "gone" | "failing" | "operator".
   */
  'disabledReason'?: (string);
  'disabledAt'?: (string);
  'health': (_tailsync_v1_SubscriptionHealth__Output | null);
  /**
   * "hmac-sha256" | "ed25519".
   */
  'signatureScheme': (string);
  'maxPerSecond'?: (number);
  'maxInFlight'?: (number);
  /**
   * "none" | "fifo".
   */
  'ordering': (string);
  '_previousSecretValidUntil'?: "previousSecretValidUntil";
  '_disabledReason'?: "disabledReason";
  '_disabledAt'?: "disabledAt";
  '_maxPerSecond'?: "maxPerSecond";
  '_maxInFlight'?: "maxInFlight";
}
