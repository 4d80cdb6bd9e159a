import { Inject, Injectable } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import { Pool } from 'pg';
import type { TokenRevocations } from '../application/revocation-ports';
import type { ListPosition } from '../domain/list-cursor';

/** `deleted` is a tombstone: it keeps the id on the revocation list until its tokens expire. */
export type ServiceAccountStatus = 'active' | 'disabled' | 'deleted';

export interface ServiceAccount {
  clientId: string;
  secretHash: string;
  domain: string;
  name: string;
  status: ServiceAccountStatus;
  createdAt: Date;
}

export interface ServiceAccountPageQuery {
  domain?: string;
  limit: number;
  after?: ListPosition;
}

const COLUMNS = 'client_id, secret_hash, domain, name, status, created_at';

/** The gateway's own table of service accounts (made by the gateway's migrations). */
@Injectable()
export class ServiceAccountsStore implements TokenRevocations {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async insert(account: Omit<ServiceAccount, 'createdAt' | 'status'>): Promise<ServiceAccount> {
    const { rows } = await this.pool.query(
      `insert into gw_service_accounts (client_id, secret_hash, domain, name) values ($1, $2, $3, $4) returning ${COLUMNS}`,
      [account.clientId, account.secretHash, account.domain, account.name],
    );
    return toAccount(rows[0]);
  }

  /** An account that is not deleted, whatever its status. */
  async find(clientId: string): Promise<ServiceAccount | null> {
    const { rows } = await this.pool.query(`select ${COLUMNS} from gw_service_accounts where client_id = $1 and status <> 'deleted'`, [clientId]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Accounts in creation order, `limit + 1` of them so the caller knows whether a next page exists. */
  async page(query: ServiceAccountPageQuery): Promise<(ServiceAccount & { position: ListPosition })[]> {
    const { rows } = await this.pool.query(
      `select ${COLUMNS}, created_at::text as position from gw_service_accounts
        where status <> 'deleted' and ($1::text is null or domain = $1)
          and ($2::timestamptz is null or (created_at, client_id) > ($2::timestamptz, $3::text))
        order by created_at, client_id limit $4`,
      [query.domain ?? null, query.after?.createdAt ?? null, query.after?.clientId ?? null, query.limit + 1],
    );
    return rows.map((row) => ({ ...toAccount(row), position: { createdAt: row.position, clientId: row.client_id } }));
  }

  /** Sets the status of an account that is not deleted; null when there is none. */
  async setStatus(clientId: string, status: ServiceAccountStatus): Promise<ServiceAccount | null> {
    const { rows } = await this.pool.query(
      `update gw_service_accounts set status = $2, status_changed_at = now() where client_id = $1 and status <> 'deleted' returning ${COLUMNS}`,
      [clientId, status],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Sets the status and refuses the tokens issued up to `tokensValidAfter` (the gateway's clock, as tokens are stamped by it). */
  async setStatusRevokingTokens(clientId: string, status: ServiceAccountStatus, tokensValidAfter: Date): Promise<ServiceAccount | null> {
    const { rows } = await this.pool.query(
      `update gw_service_accounts set status = $2, status_changed_at = now(), tokens_valid_after = $3
        where client_id = $1 and status <> 'deleted' returning ${COLUMNS}`,
      [clientId, status, tokensValidAfter],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Replaces the secret and refuses the tokens issued up to `tokensValidAfter`. */
  async replaceSecret(clientId: string, secretHash: string, tokensValidAfter: Date): Promise<ServiceAccount | null> {
    const { rows } = await this.pool.query(
      `update gw_service_accounts set secret_hash = $2, tokens_valid_after = $3 where client_id = $1 and status <> 'deleted' returning ${COLUMNS}`,
      [clientId, secretHash, tokensValidAfter],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Every domain that ever had an account, with how many it has now (deleted ones not counted). */
  async domains(): Promise<{ domain: string; serviceAccounts: number }[]> {
    const { rows } = await this.pool.query(
      `select domain, (count(*) filter (where status <> 'deleted'))::int as accounts from gw_service_accounts group by domain order by domain`,
    );
    return rows.map((row) => ({ domain: row.domain as string, serviceAccounts: row.accounts as number }));
  }

  /** Every account a domain ever had, deleted ones too: the mapping sources its tails may carry. */
  async sourcesOf(domain: string): Promise<string[]> {
    const { rows } = await this.pool.query('select client_id from gw_service_accounts where domain = $1 order by created_at', [domain]);
    return rows.map((row) => row.client_id as string);
  }

  /** Accounts with tokens refused up to an instant that unexpired tokens may predate (older ones have expired anyway). */
  async tokensValidAfter(tokenLifetimeSeconds: number): Promise<{ clientId: string; validAfterMs: number }[]> {
    const { rows } = await this.pool.query(
      `select client_id, tokens_valid_after from gw_service_accounts
        where tokens_valid_after > now() - make_interval(secs => $1 + 60)`,
      [tokenLifetimeSeconds],
    );
    return rows.map((row) => ({ clientId: row.client_id as string, validAfterMs: (row.tokens_valid_after as Date).getTime() }));
  }
}

function toAccount(row: Record<string, unknown>): ServiceAccount {
  return {
    clientId: row.client_id as string,
    secretHash: row.secret_hash as string,
    domain: row.domain as string,
    name: row.name as string,
    status: row.status as ServiceAccountStatus,
    createdAt: row.created_at as Date,
  };
}
