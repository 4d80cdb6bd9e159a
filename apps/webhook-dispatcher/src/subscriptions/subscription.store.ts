import type { DeliveryOrdering, DisabledReason, SignatureScheme, SubscriptionStatus } from '@tailsync/contracts';
import type { Pool } from 'pg';
import { SigningKeyStore, type StoredSigningKey } from './signing-key.store';

/** Where a statement runs: the pool, or a transaction's client (a change and its event committed together). */
export type Db = Pick<Pool, 'query'>;

export interface StoredSubscription {
  domain: string;
  eventNames: string[];
  url: string;
  /** How callbacks are signed: the shared secret (HMAC), or the domain's Ed25519 key. */
  signatureScheme: SignatureScheme;
  /** AES-256-GCM sealed shared secret (SecretBox text); decrypted only to sign an attempt. Null for an `ed25519` subscription saved without one. */
  sealedSecret: string | null;
  /** When the current secret was set (created, or rotated). */
  secretUpdatedAt: Date;
  /** The secret it replaced, sealed, while its grace period lasts (null when there is none). */
  previousSealedSecret: string | null;
  previousSecretValidUntil: Date | null;
  status: SubscriptionStatus;
  disabledReason: DisabledReason | null;
  disabledAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  failedInARow: number;
  createdAt: Date;
  updatedAt: Date;
  /** Flow control: attempts per second and in flight across every copy; null when unset. */
  maxPerSecond: number | null;
  maxInFlight: number | null;
  /** `fifo`: one attempt at a time, in the order on the input topic (DeliveryLeases.claimDue). */
  ordering: DeliveryOrdering;
  /** The domain's live Ed25519 keys (`ed25519` only, as read for delivering; empty in what a change returns). */
  signingKeys: StoredSigningKey[];
}

/** A save, and what it changed. */
export interface SavedSubscription {
  subscription: StoredSubscription;
  created: boolean;
  /** The secret changed (a rotation), on an existing subscription. */
  rotated: boolean;
  /** It was disabled and the save enabled it. */
  enabled: boolean;
}

/** What saving a subscription sets. */
export interface SubscriptionInput {
  eventNames: string[];
  url: string;
  /** Default `hmac-sha256`. */
  signatureScheme?: SignatureScheme;
  /** Unset (null) unless given. */
  maxPerSecond?: number | null;
  maxInFlight?: number | null;
  /** Default `none`. */
  ordering?: DeliveryOrdering;
  /** Null: keep the stored secret (an `ed25519` subscription saved without one). */
  sealedSecret: string | null;
  /** {@link secretId} of the secret (public: it is every token's `kid`), to tell a rotation from a re-save. */
  secretId: string | null;
}

interface Row {
  domain: string;
  event_names: string[];
  url: string;
  signature_scheme: SignatureScheme;
  max_per_second: number | null;
  max_in_flight: number | null;
  ordering: DeliveryOrdering;
  secret_sealed: string | null;
  secret_updated_at: Date;
  previous_secret_sealed: string | null;
  previous_secret_valid_until: Date | null;
  status: SubscriptionStatus;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  failed_in_a_row: number;
  created_at: Date;
  updated_at: Date;
}

const toSubscription = (r: Row): StoredSubscription => ({
  domain: r.domain,
  eventNames: r.event_names,
  url: r.url,
  signatureScheme: r.signature_scheme,
  maxPerSecond: r.max_per_second,
  maxInFlight: r.max_in_flight,
  ordering: r.ordering,
  sealedSecret: r.secret_sealed,
  secretUpdatedAt: r.secret_updated_at,
  previousSealedSecret: r.previous_secret_sealed,
  previousSecretValidUntil: r.previous_secret_valid_until,
  status: r.status,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at,
  lastSuccessAt: r.last_success_at,
  lastFailureAt: r.last_failure_at,
  failedInARow: r.failed_in_a_row,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  signingKeys: [],
});

const COLUMNS = `domain, event_names, url, signature_scheme, max_per_second, max_in_flight, ordering, secret_sealed, secret_updated_at, previous_secret_sealed, previous_secret_valid_until,
  status, disabled_reason, disabled_at, last_success_at, last_failure_at, failed_in_a_row, created_at, updated_at`;

/** One subscription per domain, in `webhook_subscriptions`. */
export class SubscriptionStore {
  readonly keys: SigningKeyStore;

  constructor(private readonly pool: Pool) {
    this.keys = new SigningKeyStore(pool);
  }

  /**
   * Creates or updates the domain's subscription. A different secret (by id) is a rotation: the
   * one it replaces stays valid for `graceSeconds` (one previous secret at most); the same secret
   * leaves the rotation state as it was. Atomic, so concurrent saves cannot lose a rotation.
   * Saving enables a disabled subscription and starts its run of failures afresh (the integrator
   * has looked at the endpoint).
   */
  async put(domain: string, input: SubscriptionInput, graceSeconds: number, db: Db = this.pool): Promise<SavedSubscription> {
    // No secret given (ed25519): the stored one stays as it is.
    const rotated = 'excluded.secret_id is not null and webhook_subscriptions.secret_id is distinct from excluded.secret_id';
    // `before` locks the row first (joined into the insert's select, so it runs before the upsert),
    // so concurrent saves of a domain are told apart correctly.
    const { rows } = await db.query<Row & { before_status: string | null; before_secret_id: string | null }>(
      `with before as materialized (select status, secret_id from webhook_subscriptions where domain = $1 for update)
       insert into webhook_subscriptions (domain, event_names, url, secret_sealed, secret_id, secret_updated_at, signature_scheme, max_per_second, max_in_flight, ordering)
       select $1, $2, $3, $4, $5, now(), $7, $8, $9, $10 from (select 1) one left join before on true
       on conflict (domain) do update
         set event_names = excluded.event_names, url = excluded.url, signature_scheme = excluded.signature_scheme,
             max_per_second = excluded.max_per_second, max_in_flight = excluded.max_in_flight, ordering = excluded.ordering,
             secret_sealed = coalesce(excluded.secret_sealed, webhook_subscriptions.secret_sealed),
             secret_id = coalesce(excluded.secret_id, webhook_subscriptions.secret_id), updated_at = now(),
             status = 'active', disabled_reason = null, disabled_at = null, failed_in_a_row = 0, failing_since = null,
             secret_updated_at = case when ${rotated} then now() else webhook_subscriptions.secret_updated_at end,
             previous_secret_sealed = case when ${rotated} then webhook_subscriptions.secret_sealed else webhook_subscriptions.previous_secret_sealed end,
             previous_secret_valid_until = case when ${rotated} then now() + make_interval(secs => $6::float8)
                                                else webhook_subscriptions.previous_secret_valid_until end
       returning ${COLUMNS}, (select status from before) as before_status, (select secret_id from before) as before_secret_id`,
      [domain, input.eventNames, input.url, input.sealedSecret, input.secretId, graceSeconds, input.signatureScheme ?? 'hmac-sha256', input.maxPerSecond ?? null, input.maxInFlight ?? null, input.ordering ?? 'none'],
    );
    const row = rows[0];
    const created = row.before_status === null;
    return {
      subscription: toSubscription(row),
      created,
      rotated: !created && input.secretId !== null && row.before_secret_id !== input.secretId,
      enabled: row.before_status === 'disabled',
    };
  }

  /**
   * Enables the domain's subscription and starts its run of failures afresh. Null when there is
   * none; `enabled` says whether it was disabled.
   */
  async enable(domain: string, db: Db = this.pool): Promise<{ subscription: StoredSubscription; enabled: boolean } | null> {
    const { rows } = await db.query<Row & { before_status: string }>(
      `with before as materialized (select domain, status from webhook_subscriptions where domain = $1 for update)
       update webhook_subscriptions s
          set status = 'active', disabled_reason = null, disabled_at = null, failed_in_a_row = 0, failing_since = null
         from before b
        where s.domain = b.domain
       returning ${COLUMNS.replace(/(\w+)/g, 's.$1')}, b.status as before_status`,
      [domain],
    );
    return rows[0] ? { subscription: toSubscription(rows[0]), enabled: rows[0].before_status === 'disabled' } : null;
  }

  /**
   * Why the domain's subscription is disabled (null while active), the row locked until the
   * transaction ends, so a change decided on it cannot race an operator's disable. Null when there is none.
   */
  async lockedState(domain: string, db: Db): Promise<{ disabledReason: DisabledReason | null } | null> {
    const { rows } = await db.query<{ disabled_reason: DisabledReason | null }>('select disabled_reason from webhook_subscriptions where domain = $1 for update', [domain]);
    return rows[0] ? { disabledReason: rows[0].disabled_reason } : null;
  }

  async get(domain: string): Promise<StoredSubscription | null> {
    return (await this.getMany([domain])).get(domain) ?? null;
  }

  /** The subscriptions of the domains, each `ed25519` one with its domain's live keys. */
  async getMany(domains: string[]): Promise<Map<string, StoredSubscription>> {
    if (domains.length === 0) return new Map();
    const { rows } = await this.pool.query<Row>(`select ${COLUMNS} from webhook_subscriptions where domain = any($1::text[])`, [domains]);
    const found = new Map(rows.map((r) => [r.domain, toSubscription(r)]));
    const keyed = rows.filter((r) => r.signature_scheme === 'ed25519').map((r) => r.domain);
    for (const [domain, keys] of await this.keys.live(keyed)) found.get(domain)!.signingKeys = keys;
    return found;
  }

  /** Disables an active subscription; the subscription as it is now when it changed, else null. */
  async disable(domain: string, reason: DisabledReason, db: Db = this.pool): Promise<StoredSubscription | null> {
    const { rows } = await db.query<Row>(
      `update webhook_subscriptions set status = 'disabled', disabled_reason = $2, disabled_at = now()
        where domain = $1 and status = 'active'
       returning ${COLUMNS}`,
      [domain, reason],
    );
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  /** True when a subscription was there to delete. */
  async delete(domain: string, db: Db = this.pool): Promise<boolean> {
    const { rowCount } = await db.query('delete from webhook_subscriptions where domain = $1', [domain]);
    return (rowCount ?? 0) > 0;
  }

  /** Subscriptions saved before secret ids existed: their sealed secret, to compute the id. */
  async withoutSecretId(): Promise<{ domain: string; sealedSecret: string }[]> {
    const { rows } = await this.pool.query<{ domain: string; secret_sealed: string }>(
      'select domain, secret_sealed from webhook_subscriptions where secret_id is null and secret_sealed is not null',
    );
    return rows.map((r) => ({ domain: r.domain, sealedSecret: r.secret_sealed }));
  }

  /** Sets the id of a secret, unless the secret changed meanwhile. */
  async setSecretId(domain: string, sealedSecret: string, id: string): Promise<void> {
    await this.pool.query('update webhook_subscriptions set secret_id = $3 where domain = $1 and secret_sealed = $2 and secret_id is null', [domain, sealedSecret, id]);
  }
}
