import type { Pool } from 'pg';
import type { NewSigningKeyPair } from '../signing/domain-signing-key';
import type { Db } from './subscription.store';

/** One of a domain's Ed25519 keys as stored: the private seed sealed (SecretBox, see {@link signingKeySealContext}). */
export interface StoredSigningKey {
  domain: string;
  kid: string;
  /** base64url of the public key (the JWK's `x`). */
  publicKey: string;
  privateSeedSealed: string;
  createdAt: Date;
  /** From when it signs (until a newer key's `signsFrom`). */
  signsFrom: Date;
  /** When it leaves the JWK Set; null while no newer key replaces it. */
  retiresAt: Date | null;
}

/** What a rotation did: the key it published and the key it retires (null for a first key), or the key that already waits. */
export type KeyRotation = { rotated: true; key: StoredSigningKey; retiring: StoredSigningKey | null } | { rotated: false; waiting: StoredSigningKey };

/** A sealed new key pair, ready to store. */
export type SealedKeyPair = Omit<NewSigningKeyPair, 'privateSeed'> & { privateSeedSealed: string };

/** What a private seed is sealed to (SecretBox's additional data): its domain and key, so a seed copied elsewhere does not unseal. */
export const signingKeySealContext = (domain: string, kid: string): string => `${domain}#signing-key:${kid}`;

interface Row {
  domain: string;
  kid: string;
  public_key: string;
  private_seed_sealed: string;
  created_at: Date;
  signs_from: Date;
  retires_at: Date | null;
}

const COLUMNS = 'domain, kid, public_key, private_seed_sealed, created_at, signs_from, retires_at';
const toKey = (r: Row): StoredSigningKey => ({
  domain: r.domain, kid: r.kid, publicKey: r.public_key, privateSeedSealed: r.private_seed_sealed,
  createdAt: r.created_at, signsFrom: r.signs_from, retiresAt: r.retires_at,
});
/** Serialises the key changes of one domain (the first key, rotations) across copies. */
const LOCK = `select pg_advisory_xact_lock(hashtextextended('webhook-signing-keys:' || $1, 0))`;

/** The domains' Ed25519 signing keys, in `webhook_signing_keys`. */
export class SigningKeyStore {
  constructor(private readonly pool: Pool) {}

  /** The keys still published (not retired), per domain, oldest first. */
  async live(domains: readonly string[], db: Db = this.pool): Promise<Map<string, StoredSigningKey[]>> {
    const found = new Map<string, StoredSigningKey[]>();
    if (domains.length === 0) return found;
    const { rows } = await db.query<Row>(
      `select ${COLUMNS} from webhook_signing_keys where domain = any($1::text[]) and (retires_at is null or retires_at > now()) order by domain, signs_from`,
      [domains],
    );
    for (const row of rows) found.set(row.domain, [...(found.get(row.domain) ?? []), toKey(row)]);
    return found;
  }

  /**
   * Gives the domain a key that signs (in the caller's transaction): none when its chain of keys
   * is in use (its newest key has no retirement); the newest back in use when the subscription was
   * deleted or switched to HMAC less than a grace period ago (receivers still hold it); else a first
   * key, signing at once. `make` is called only when a key is needed.
   */
  async ensure(domain: string, make: () => SealedKeyPair, db: Db): Promise<void> {
    await db.query(LOCK, [domain]);
    const { rows } = await db.query<{ kid: string; retires_at: Date | null }>(
      'select kid, retires_at from webhook_signing_keys where domain = $1 and (retires_at is null or retires_at > now()) order by signs_from desc limit 1',
      [domain],
    );
    if (rows.length > 0) {
      if (rows[0].retires_at !== null) await db.query('update webhook_signing_keys set retires_at = null where domain = $1 and kid = $2', [domain, rows[0].kid]);
      return;
    }
    await this.insert(domain, make(), 0, db);
  }

  /**
   * The subscription was deleted or no longer signs with Ed25519: its keys leave the JWK Set
   * `graceSeconds` from now (sooner when a rotation already retires one), so the set stops telling
   * who exists and who uses Ed25519, while callbacks signed just before verify.
   */
  async withdraw(domain: string, graceSeconds: number, db: Db): Promise<void> {
    await db.query(LOCK, [domain]);
    await db.query(
      `update webhook_signing_keys set retires_at = least(coalesce(retires_at, 'infinity'), now() + make_interval(secs => $2::float8))
        where domain = $1 and (retires_at is null or retires_at > now())`,
      [domain, graceSeconds],
    );
  }

  /**
   * Takes the key out of the JWK Set now. When it was the one signing, the key waiting to sign
   * signs now, or, when none waits and `make` is given (the subscription signs with Ed25519), a new
   * one made now does: a compromised key must not sign one more callback. A waiting key revoked
   * leaves the current one signing for good (its retirement is cancelled). Null when the domain
   * publishes no key `kid`; else the revoked key and the key that signs now (none without `make`).
   */
  async revoke(domain: string, kid: string, make: (() => SealedKeyPair) | undefined, db: Db): Promise<{ revoked: StoredSigningKey; signingKid: string | null } | null> {
    await db.query(LOCK, [domain]);
    const { rows } = await db.query<Row & { signing: boolean }>(
      `select ${COLUMNS}, signs_from <= now() as signing from webhook_signing_keys
        where domain = $1 and (retires_at is null or retires_at > now()) order by signs_from desc`,
      [domain],
    );
    const revoked = rows.find((r) => r.kid === kid);
    if (!revoked) return null;
    await db.query('update webhook_signing_keys set retires_at = now() where domain = $1 and kid = $2', [domain, kid]);
    const waiting = rows.find((r) => !r.signing);
    const current = rows.find((r) => r.signing);
    let signingKid = current && current !== revoked ? current.kid : null;
    if (revoked === current && waiting) {
      await db.query('update webhook_signing_keys set signs_from = now() where domain = $1 and kid = $2', [domain, waiting.kid]);
      signingKid = waiting.kid;
    } else if (revoked === current && make) {
      const pair = make();
      await this.insert(domain, pair, 0, db);
      signingKid = pair.kid;
    } else if (revoked === waiting && current && make) {
      await db.query('update webhook_signing_keys set retires_at = null where domain = $1 and kid = $2', [domain, current.kid]);
    }
    if (!make) signingKid = null;
    await this.prune(domain, db);
    return { revoked: toKey(revoked), signingKid };
  }

  /**
   * Rotates the domain's key: a new key is published now and signs `graceSeconds` from now; the
   * key signing now stays published `graceSeconds` after that. While a rotation is under way (a key
   * waits to sign) nothing changes: the waiting key is returned. A domain without a key gets its
   * first, signing at once.
   */
  async rotate(domain: string, make: () => SealedKeyPair, graceSeconds: number, db: Db): Promise<KeyRotation> {
    await db.query(LOCK, [domain]);
    const { rows } = await db.query<Row & { waiting: boolean }>(
      `select ${COLUMNS}, signs_from > now() as waiting from webhook_signing_keys
        where domain = $1 and (retires_at is null or retires_at > now()) order by signs_from desc`,
      [domain],
    );
    if (rows.length > 0 && rows[0].waiting) return { rotated: false, waiting: toKey(rows[0]) };
    const key = await this.insert(domain, make(), rows.length > 0 ? graceSeconds : 0, db);
    let retiring: StoredSigningKey | null = null;
    if (rows.length > 0) {
      const updated = await db.query<Row>(
        `update webhook_signing_keys set retires_at = now() + make_interval(secs => 2 * $3::float8) where domain = $1 and kid = $2 returning ${COLUMNS}`,
        [domain, rows[0].kid, graceSeconds],
      );
      retiring = toKey(updated.rows[0]);
    }
    await this.prune(domain, db);
    return { rotated: true, key, retiring };
  }

  /** Stores a new key of the domain that signs `afterSeconds` from now. */
  private async insert(domain: string, pair: SealedKeyPair, afterSeconds: number, db: Db): Promise<StoredSigningKey> {
    const { rows } = await db.query<Row>(
      `insert into webhook_signing_keys (domain, kid, public_key, private_seed_sealed, signs_from) values ($1, $2, $3, $4, now() + make_interval(secs => $5::float8))
       returning ${COLUMNS}`,
      [domain, pair.kid, pair.publicKey, pair.privateSeedSealed, afterSeconds],
    );
    return toKey(rows[0]);
  }

  /** Retired long ago: nothing signs or verifies with them any more. */
  private async prune(domain: string, db: Db): Promise<void> {
    await db.query(`delete from webhook_signing_keys where domain = $1 and retires_at < now() - interval '1 day'`, [domain]);
  }
}
