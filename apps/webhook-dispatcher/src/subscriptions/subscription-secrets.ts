import { secretId } from '@tailsync/webhooks';
import type { StoredSubscription, SubscriptionStore } from './subscription.store';
import { type SecretBox } from '../sealing/secret-box';

/**
 * The secrets that sign a callback now: the current one first (it alone signs the JWT), then the
 * previous one while its grace period lasts. Throws a SecretBoxError when they cannot be unsealed.
 */
export function signingSecrets(
  subscription: Pick<StoredSubscription, 'domain' | 'previousSealedSecret' | 'previousSecretValidUntil'> & { sealedSecret: string },
  box: Pick<SecretBox, 'decrypt'>,
  now = new Date(),
): [string, ...string[]] {
  const current = box.decrypt(subscription.sealedSecret, subscription.domain);
  const { previousSealedSecret, previousSecretValidUntil } = subscription;
  if (previousSealedSecret === null || previousSecretValidUntil === null || previousSecretValidUntil <= now) return [current];
  return [current, box.decrypt(previousSealedSecret, subscription.domain)];
}

/** Until when the previous secret is still honoured, or null when there is none (or its grace is over). */
export function previousSecretValidUntil(subscription: StoredSubscription, now = new Date()): Date | null {
  const until = subscription.previousSecretValidUntil;
  return subscription.previousSealedSecret !== null && until !== null && until > now ? until : null;
}

/**
 * Fills in the secret id of subscriptions saved before ids were stored (an upgraded database),
 * so re-saving the same secret is not taken for a rotation. Rows it cannot unseal are left as they are.
 */
export async function backfillSecretIds(store: SubscriptionStore, box: SecretBox): Promise<void> {
  for (const { domain, sealedSecret } of await store.withoutSecretId()) {
    let secret: string;
    try {
      secret = box.decrypt(sealedSecret, domain);
    } catch {
      continue;
    }
    await store.setSecretId(domain, sealedSecret, secretId(secret));
  }
}
