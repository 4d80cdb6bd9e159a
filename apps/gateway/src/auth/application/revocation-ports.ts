/** Token of the adapter the revocation list is read from (the service accounts' table). */
export const TOKEN_REVOCATIONS = Symbol('TOKEN_REVOCATIONS');

/** Per client id, the instant up to which its tokens are refused, for those an unexpired token may predate. */
export interface TokenRevocations {
  tokensValidAfter(tokenLifetimeSeconds: number): Promise<{ clientId: string; validAfterMs: number }[]>;
}
