-- Up Migration

-- The gateway's service accounts. Before there were migrations the gateway ran these statements
-- at start (each `if not exists`), so on a database it made they change nothing.
create table if not exists gw_service_accounts (
  client_id   text primary key,
  secret_hash text not null,
  domain      text not null,
  name        text not null,
  created_at  timestamptz not null default now()
);
-- `deleted` is a tombstone: it keeps the id on the revocation list until its tokens expire.
alter table gw_service_accounts add column if not exists status text not null default 'active';
alter table gw_service_accounts add column if not exists status_changed_at timestamptz not null default now();
-- The revocation list every gateway copy polls, and the admin list in creation order.
create index if not exists gw_service_accounts_revoked on gw_service_accounts (client_id) where status <> 'active';
create index if not exists gw_service_accounts_listing on gw_service_accounts (created_at, client_id) where status <> 'deleted';
