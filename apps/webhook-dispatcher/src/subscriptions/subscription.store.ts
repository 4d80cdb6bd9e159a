import type { Pool } from 'pg';

export interface StoredSubscription {
  domain: string;
  eventNames: string[];
  url: string;
  /** AES-256-GCM sealed shared secret (SecretBox text); decrypted only to sign an attempt. */
  sealedSecret: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  domain: string;
  event_names: string[];
  url: string;
  secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const toSubscription = (r: Row): StoredSubscription => ({
  domain: r.domain,
  eventNames: r.event_names,
  url: r.url,
  sealedSecret: r.secret_sealed,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** One subscription per domain, in `webhook_subscriptions`. */
export class SubscriptionStore {
  constructor(private readonly pool: Pool) {}

  async put(domain: string, eventNames: string[], url: string, sealedSecret: string): Promise<StoredSubscription> {
    const { rows } = await this.pool.query<Row>(
      `insert into webhook_subscriptions (domain, event_names, url, secret_sealed)
       values ($1, $2, $3, $4)
       on conflict (domain) do update
         set event_names = excluded.event_names, url = excluded.url, secret_sealed = excluded.secret_sealed, updated_at = now()
       returning *`,
      [domain, eventNames, url, sealedSecret],
    );
    return toSubscription(rows[0]);
  }

  async get(domain: string): Promise<StoredSubscription | null> {
    const { rows } = await this.pool.query<Row>('select * from webhook_subscriptions where domain = $1', [domain]);
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  async getMany(domains: string[]): Promise<Map<string, StoredSubscription>> {
    if (domains.length === 0) return new Map();
    const { rows } = await this.pool.query<Row>('select * from webhook_subscriptions where domain = any($1::text[])', [domains]);
    return new Map(rows.map((r) => [r.domain, toSubscription(r)]));
  }

  /** True when a subscription was there to delete. */
  async delete(domain: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('delete from webhook_subscriptions where domain = $1', [domain]);
    return (rowCount ?? 0) > 0;
  }
}
