import { randomBytes } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED } from '@tailsync/contracts';
import { secretId } from '@tailsync/webhooks';
import { isolatedDatabase, newSharedSecret } from '../testing/harness';
import { SecretBox, SecretBoxError } from '../sealing/secret-box';
import { CallbackKeys, sealedKeyPair } from './callback-keys';
import { rewrapSealedValues } from './sealed-values-rewrap';
import { signingKeySealContext, SigningKeyStore } from './signing-key.store';
import { SubscriptionStore } from './subscription.store';

// The previous release's sealed value (v1, no key id) of this secret for domain acme, under 32 bytes of 0x01 (secret-box.spec.ts).
const LEGACY_KEY = Buffer.alloc(32, 1).toString('base64');
const LEGACY_SECRET = 'a-secret-sealed-by-the-previous-release';
const LEGACY_SEALED = 'v1.S_MJqW3OldZWfXXv.HaELm4bI5RB2Tz8unM_Vsw.WlDmW1V867KeuaaNsO0UZDOVXp4BUrm9_FY5q_nuZsIT2tpzBWXL';

describe('rewrapSealedValues: every sealed value moved under a new key, on the real PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let subscriptions: SubscriptionStore;
  let keys: SigningKeyStore;
  const newKey = randomBytes(32).toString('base64');
  const before = new SecretBox(LEGACY_KEY);
  const during = new SecretBox(`${newKey}\n${LEGACY_KEY}`); // the new key seals, the old one still unseals
  const after = new SecretBox(newKey); // the old key dropped
  const [first, second] = [newSharedSecret(), newSharedSecret()];
  const save = (domain: string, sealedSecret: string, secret: string) =>
    subscriptions.put(domain, { eventNames: [RISK_ASSESSMENT_EXECUTED], url: 'http://127.0.0.1:9/', sealedSecret, secretId: secretId(secret) }, 3600);
  const stored = async () => {
    const { rows } = await db.pool.query<{ value: string }>(
      `select secret_sealed as value from webhook_subscriptions where secret_sealed is not null
        union all select previous_secret_sealed from webhook_subscriptions where previous_secret_sealed is not null
        union all select private_seed_sealed from webhook_signing_keys`);
    return rows.map((r) => r.value);
  };

  beforeAll(async () => {
    db = await isolatedDatabase('rewrap');
    subscriptions = new SubscriptionStore(db.pool);
    keys = new SigningKeyStore(db.pool);
    await save('acme', LEGACY_SEALED, LEGACY_SECRET); // stored by the previous release
    await save('globex', before.encrypt(first, 'globex'), first);
    await save('globex', before.encrypt(second, 'globex'), second); // rotated: the first is the previous secret
    await subscriptions.put('initech', { eventNames: [RISK_ASSESSMENT_EXECUTED], url: 'http://127.0.0.1:9/', signatureScheme: 'ed25519', sealedSecret: null, secretId: null }, 3600);
    await keys.ensure('initech', () => sealedKeyPair(before, 'initech'), db.pool);
    await keys.rotate('initech', () => sealedKeyPair(before, 'initech'), 3600, db.pool);
    await save('umbrella', new SecretBox(randomBytes(32).toString('base64')).encrypt(first, 'umbrella'), first); // under a key no one holds
  });

  afterAll(() => db.drop());

  it('leaves every old value readable under the new key list until it is rewrapped', async () => {
    expect((await stored()).filter((v) => !v.startsWith(`v2.${during.sealingKeyId}.`))).toHaveLength(6);
    expect(new CallbackKeys(during).forSubscription((await subscriptions.get('acme'))!)).toEqual({ secrets: [LEGACY_SECRET] });
    expect(new CallbackKeys(during).forSubscription((await subscriptions.get('globex'))!)).toEqual({ secrets: [second, first] });
  });

  it('seals every readable value again under the new key, reports the unreadable one by domain, and a second run finds nothing to do', async () => {
    const seeds = new Map((await keys.live(['initech'])).get('initech')!.map((k) => [k.kid, before.decrypt(k.privateSeedSealed, signingKeySealContext('initech', k.kid))]));
    const report = await rewrapSealedValues(db.pool, during);
    expect(report).toEqual({
      sealingKeyId: during.sealingKeyId,
      rewrapped: 5, // acme's secret, globex's two, initech's two keys
      changedMeanwhile: 0,
      unreadable: [{ what: 'shared secret', domain: 'umbrella', reason: expect.stringMatching(/^sealed under key [0-9a-f]{16}, which WEBHOOK_SECRET_KEY does not hold$/) }],
    });
    expect(JSON.stringify(report)).not.toContain(first);

    // Only umbrella's value is left under another key; everything else opens with the new key alone.
    expect((await stored()).filter((v) => !v.startsWith(`v2.${after.sealingKeyId}.`))).toHaveLength(1);
    expect(new CallbackKeys(after).forSubscription((await subscriptions.get('acme'))!)).toEqual({ secrets: [LEGACY_SECRET] });
    expect(new CallbackKeys(after).forSubscription((await subscriptions.get('globex'))!)).toEqual({ secrets: [second, first] });
    for (const key of (await keys.live(['initech'])).get('initech')!) {
      expect(after.decrypt(key.privateSeedSealed, signingKeySealContext('initech', key.kid))).toBe(seeds.get(key.kid));
    }
    const rewrapped = (await subscriptions.get('globex'))!.sealedSecret!;
    expect(() => before.decrypt(rewrapped, 'globex')).toThrow(SecretBoxError); // the old key alone no longer opens it

    expect(await rewrapSealedValues(db.pool, during)).toMatchObject({ rewrapped: 0, changedMeanwhile: 0, unreadable: [expect.objectContaining({ domain: 'umbrella' })] });
  });
});
