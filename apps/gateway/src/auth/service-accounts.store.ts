import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { migrateUnderLock, PG_POOL } from '@tailsync/service-kit';
import { Pool } from 'pg';

export interface ServiceAccount {
  clientId: string;
  secretHash: string;
  domain: string;
  name: string;
  createdAt: Date;
}

/** The gateway's own table of service accounts. */
@Injectable()
export class ServiceAccountsStore implements OnModuleInit {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  onModuleInit(): Promise<void> {
    return migrateUnderLock(this.pool, 'tailsync.gateway.migrate', [
      `create table if not exists gw_service_accounts (
        client_id text primary key,
        secret_hash text not null,
        domain text not null,
        name text not null,
        created_at timestamptz not null default now())`,
    ]);
  }

  async insert(account: Omit<ServiceAccount, 'createdAt'>): Promise<void> {
    await this.pool.query('insert into gw_service_accounts (client_id, secret_hash, domain, name) values ($1, $2, $3, $4)', [
      account.clientId, account.secretHash, account.domain, account.name,
    ]);
  }

  async find(clientId: string): Promise<ServiceAccount | null> {
    const { rows } = await this.pool.query(
      'select client_id, secret_hash, domain, name, created_at from gw_service_accounts where client_id = $1',
      [clientId],
    );
    const row = rows[0];
    return row ? { clientId: row.client_id, secretHash: row.secret_hash, domain: row.domain, name: row.name, createdAt: row.created_at } : null;
  }
}
