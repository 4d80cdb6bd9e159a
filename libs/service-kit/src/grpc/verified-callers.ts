import { BoundedLru } from '../cache/bounded-lru';
import type { CallerIdentity } from './caller-token';
import type { CallerTokenVerifier, VerifiedCaller } from './caller-token-verifier';

/** Callers kept at most; the gateway reuses one per (domain, client, role), so this covers many. */
const CAPACITY = 10_000;

/**
 * A service's verified callers, kept by their exact bytes until they expire: the gateway sends the
 * same signed caller for up to a minute, so its signature is checked once, not on every call.
 * Only verified callers are kept; a refused one is checked again each time.
 */
export class VerifiedCallers {
  private readonly verified: BoundedLru<string, VerifiedCaller>;

  constructor(
    private readonly verifier: Pick<CallerTokenVerifier, 'verify'>,
    private readonly now: () => number = Date.now,
    capacity = CAPACITY,
  ) {
    this.verified = new BoundedLru(capacity);
  }

  /** The caller a token names; throws CallerRefused when it is not a valid one. */
  identify(token: unknown): CallerIdentity {
    if (typeof token === 'string') {
      const kept = this.verified.get(token);
      if (kept && this.now() < kept.trustedUntilMs) return kept.identity;
      if (kept) this.verified.delete(token);
    }
    const caller = this.verifier.verify(token);
    this.verified.set(token as string, caller);
    return caller.identity;
  }
}
