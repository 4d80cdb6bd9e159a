import type { AccessTokenClaims } from './access-token';

/** Claims of a verified token and when it expires (JWT `exp`, seconds since the epoch). */
export type VerifiedClaims = AccessTokenClaims & { exp: number };

/**
 * Tokens whose signature and claims were already verified, until they expire: a caller sends the
 * same token with every request, and verifying it (HMAC, JSON) each time is wasted CPU.
 * Bounded: when full it starts again empty (the next request of each caller verifies once more).
 */
export class VerifiedTokens {
  private readonly byToken = new Map<string, VerifiedClaims>();

  constructor(private readonly capacity = 10_000) {}

  /** The claims of `token` if it was verified and has not expired at `nowMs`. */
  get(token: string, nowMs: number): VerifiedClaims | undefined {
    const claims = this.byToken.get(token);
    if (claims && claims.exp * 1000 <= nowMs) {
      this.byToken.delete(token);
      return undefined;
    }
    return claims;
  }

  remember(token: string, claims: VerifiedClaims): void {
    if (this.byToken.size >= this.capacity) this.byToken.clear();
    this.byToken.set(token, claims);
  }
}
