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
   * Gives the domain its first key, signing at once, unless it has a live one (in the caller's
   * transaction). `make` is called only when a key is needed.
   */
  async ensure(domain: string, make: () => SealedKeyPair, db: Db): Promise<void> {
    await db.query(LOCK, [domain]);
    const { rows } = await db.query('select 1 from webhook_signing_keys where domain = $1 and (retires_at is null or retires_at > now()) limit 1', [domain]);
    if (rows.length > 0) return;
    const pair = make();
    await db.query(
      'insert into webhook_signing_keys (domain, kid, public_key, private_seed_sealed, signs_from) values ($1, $2, $3, $4, now())',
      [domain, pair.kid, pair.publicKey, pair.privateSeedSealed],
    );
  }

  /**
   * Rotates the domain's key: a new key is published now and signs `graceSeconds` from now; the
   * key signing now stays published `graceSeconds` after that. While a rotation is under way (a key
   * waits to sign) nothing changes: the waiting key is returned. A domain without a key gets its
   * first, signing at once.
   */
  async rotate(domain: string, make: () => SealedKeyPair, graceSeconds: number, db: Db): Promise<{ rotated: true } | { rotated: false; waiting: StoredSigningKey }> {
    await db.query(LOCK, [domain]);
    const { rows } = await db.query<Row & { waiting: boolean }>(
      `select ${COLUMNS}, signs_from > now() as waiting from webhook_signing_keys
        where domain = $1 and (retires_at is null or retires_at > now()) order by signs_from desc`,
      [domain],
    );
    if (rows.length > 0 && rows[0].waiting) return { rotated: false, waiting: toKey(rows[0]) };
    const pair = make();
    await db.query(
      `insert into webhook_signing_keys (domain, kid, public_key, private_seed_sealed, signs_from) values ($1, $2, $3, $4, now() + make_interval(secs => $5::float8))`,
      [domain, pair.kid, pair.publicKey, pair.privateSeedSealed, graceSeconds],
    );
    if (rows.length > 0) {
      await db.query(
        `update webhook_signing_keys set retires_at = now() + make_interval(secs => 2 * $3::float8) where domain = $1 and kid = $2`,
        [domain, rows[0].kid, graceSeconds],
      );
    }
    // Retired long ago: nothing signs or verifies with them any more.
    await db.query(`delete from webhook_signing_keys where domain = $1 and retires_at < now() - interval '1 day'`, [domain]);
    return { rotated: true };
  }
}
