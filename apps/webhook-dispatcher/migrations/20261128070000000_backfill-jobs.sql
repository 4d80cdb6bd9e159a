-- Up Migration

-- Backfill jobs: read and stored in pages by whichever dispatcher copy holds the lease; a copy that
-- dies lets go when `lease_until` passes, and the next one resumes from `checkpoint`
-- ({ topic: { partition, next, end } }, the offsets as text).
create table webhook_backfills (
  id uuid primary key,
  domain text not null,
  since timestamptz not null,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed', 'cancelled')),
  events_found bigint not null default 0,
  events_stored bigint not null default 0,
  checkpoint jsonb not null default '{}',
  -- When the last stored delivery is due: the next page's are paced after it.
  paced_until timestamptz,
  lease_owner text,
  lease_until timestamptz,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);

-- One queued or running job per domain: a second insert finds this key taken.
create unique index webhook_backfills_active_idx on webhook_backfills (domain) where state in ('queued', 'running');
create index webhook_backfills_claim_idx on webhook_backfills (created_at) where state in ('queued', 'running');
create index webhook_backfills_domain_idx on webhook_backfills (domain, created_at desc);
