import { BoundedLru, type CallerIdentity, type CallerSigning, type SignedCaller } from '@tailsync/service-kit';

/** Signed callers kept at most per service: the busiest (domain, client, role) triples; others are signed again when they return. */
const CAPACITY = 10_000;

/**
 * The gateway's signed callers for one service, one per (domain, client, role), each reused
 * until a call's deadline would outlive it (contract: "Requests between services"): a caller is
 * signed about once a minute instead of once a call.
 */
export class SignedCallers {
  private readonly signed: BoundedLru<string, SignedCaller>;

  constructor(
    private readonly signer: CallerSigning,
    private readonly audience: string,
    capacity = CAPACITY,
  ) {
    this.signed = new BoundedLru(capacity);
  }

  /** A caller token still valid when a call that must end by `deadline` (epoch ms) arrives. */
  token(caller: CallerIdentity, deadline: number): string {
    // The signing key's kid is part of the key: a new key signs every caller again, and the old ones age out.
    const key = `${this.signer.kid}\0${callerKey(caller)}`;
    const kept = this.signed.get(key);
    if (kept && kept.expiresAtMs > deadline) return kept.token;
    const fresh = this.signer.sign(caller, this.audience);
    this.signed.set(key, fresh);
    return fresh.token;
  }
}

/** One (role, domain, client) triple: a role or a domain never holds a NUL, so the key names one triple only. */
export function callerKey(caller: CallerIdentity): string {
  return `${caller.role}\0${caller.domain}\0${caller.source}`;
}
