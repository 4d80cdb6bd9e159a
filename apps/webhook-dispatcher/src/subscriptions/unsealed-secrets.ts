import type { SecretBox } from '../sealing/secret-box';

/** Secrets kept at most; past it the longest kept is dropped. */
const MAX_KEPT = 10_000;

/**
 * Unseals subscription secrets once, not on every attempt: each attempt unsealed its
 * subscription's secret (AES-256-GCM), about 4 % of the dispatcher's time at a steady rate. Kept
 * in this process's memory only, by domain and sealed text (a new secret is new text), like the
 * secret unsealed for one attempt; a text that does not unseal is never kept.
 */
export class UnsealedSecrets implements Pick<SecretBox, 'decrypt'> {
  private readonly kept = new Map<string, string>();

  constructor(private readonly box: SecretBox) {}

  decrypt(sealed: string, domain: string): string {
    const key = `${domain}\u0000${sealed}`;
    let secret = this.kept.get(key);
    if (secret === undefined) {
      secret = this.box.decrypt(sealed, domain);
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, secret);
    }
    return secret;
  }
}
