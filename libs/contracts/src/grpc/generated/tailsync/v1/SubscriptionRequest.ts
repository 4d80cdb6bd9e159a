// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


/**
 * The caller's domain's one subscription (the domain is the signed caller's).
 */
export interface SubscriptionRequest {
}

/**
 * The caller's domain's one subscription (the domain is the signed caller's).
 */
export interface SubscriptionRequest__Output {
}
