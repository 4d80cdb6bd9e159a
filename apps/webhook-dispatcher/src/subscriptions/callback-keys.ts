import type { SecretBox } from '../sealing/secret-box';
import { signingKeySealContext, type SealedKeyPair, type StoredSigningKey } from './signing-key.store';
import { signingSecrets } from './subscription-secrets';
import type { StoredSubscription } from './subscription.store';
import type { CallbackSigningKeys } from '../signing/callback-signer';
import { DomainSigningKey, newSigningKeyPair } from '../signing/domain-signing-key';

/** Keys kept unsealed at most; past it the longest kept is dropped. */
const MAX_KEPT = 10_000;

/** The subscription has no key or secret to sign with (what the attempt's log says). */
export class NoSigningKey extends Error {}

/** The key of the domain that signs at `now`: the newest whose `signsFrom` has come. */
export function signingKeyAt(keys: readonly StoredSigningKey[], now: Date): StoredSigningKey | undefined {
  let found: StoredSigningKey | undefined;
  for (const key of keys) if (key.signsFrom <= now && (found === undefined || key.signsFrom > found.signsFrom)) found = key;
  return found;
}

/** A fresh key pair for the domain, its private seed sealed. */
export function sealedKeyPair(box: Pick<SecretBox, 'encrypt'>, domain: string): SealedKeyPair {
  const { privateSeed, ...pair } = newSigningKeyPair();
  return { ...pair, privateSeedSealed: box.encrypt(privateSeed, signingKeySealContext(domain, pair.kid)) };
}

/**
 * What signs a subscription's callback now: its shared secrets (`hmac-sha256`), or its domain's
 * Ed25519 key (`ed25519`), unsealed once and kept in this process's memory like the secrets.
 */
export class CallbackKeys {
  private readonly kept = new Map<string, DomainSigningKey>();

  constructor(private readonly box: Pick<SecretBox, 'decrypt'>) {}

  /** Throws NoSigningKey, or SecretBoxError when what is stored cannot be unsealed. */
  forSubscription(subscription: StoredSubscription, now = new Date()): CallbackSigningKeys {
    if (subscription.signatureScheme === 'hmac-sha256') {
      if (subscription.sealedSecret === null) throw new NoSigningKey('the subscription has no shared secret');
      return { secrets: signingSecrets({ ...subscription, sealedSecret: subscription.sealedSecret }, this.box, now) };
    }
    const stored = signingKeyAt(subscription.signingKeys, now);
    if (!stored) throw new NoSigningKey(`the domain has no signing key yet`);
    return { signingKey: this.unsealed(stored) };
  }

  private unsealed(stored: StoredSigningKey): DomainSigningKey {
    const cacheKey = `${stored.domain}\u0000${stored.privateSeedSealed}`;
    let key = this.kept.get(cacheKey);
    if (key === undefined) {
      key = new DomainSigningKey(stored.kid, stored.publicKey, this.box.decrypt(stored.privateSeedSealed, signingKeySealContext(stored.domain, stored.kid)));
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(cacheKey, key);
    }
    return key;
  }
}
