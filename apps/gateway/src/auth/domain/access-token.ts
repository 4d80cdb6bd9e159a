/** Claims of the access tokens `/oauth/token` issues. */
export interface AccessTokenClaims {
  sub: string; // clientId: the mapping source
  dom: string; // the service account's domain
  iat_ms: number; // when it was issued, to the millisecond (JWT `iat` is whole seconds): revocation compares it
}

export const ACCESS_TOKEN_ISSUER = 'tailsync';
export const ACCESS_TOKEN_AUDIENCE = 'tailsync-api';
