// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


/**
 * A public key of the JWK Set (kty OKP, crv Ed25519, alg EdDSA, use sig).
 */
export interface WebhookJwk {
  'kid'?: (string);
  'x'?: (string);
}

/**
 * A public key of the JWK Set (kty OKP, crv Ed25519, alg EdDSA, use sig).
 */
export interface WebhookJwk__Output {
  'kid': (string);
  'x': (string);
}
