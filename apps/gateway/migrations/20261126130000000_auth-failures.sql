-- Up Migration

-- Failed sign-ins of the last minute per key (a client id's digest, a source address), shared by
-- every gateway copy so the failure limit holds however many copies answer. Rows older than a
-- minute no longer count; each copy deletes them now and then.
create table gw_auth_failures (
  key       text not null,
  failed_at timestamptz not null default now()
);
create index gw_auth_failures_by_key on gw_auth_failures (key, failed_at);
