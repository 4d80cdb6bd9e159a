-- Up Migration

-- The webhook dispatcher's tables: subscriptions, deliveries and their attempts. Before there were
-- migrations the dispatcher ran these statements at start, in this order; each is idempotent (`if
-- not exists`, or guarded), so on a database it made they change nothing, and a database of an
-- earlier release is brought up to date by the same steps as then.

create table if not exists webhook_subscriptions (
  domain        text        primary key,
  event_names   text[]      not null,
  url           text        not null,
  secret_sealed text        not null,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);

create table if not exists webhook_deliveries (
  id              uuid        primary key default gen_random_uuid(),
  seq             bigserial   not null,
  domain          text        not null,
  event_id        uuid        not null,
  event_name      text        not null,
  body            text        not null,
  status          text        not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts        int         not null default 0,
  round_start     int         not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_owner     text,
  lease_token     uuid,
  lease_until     timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  constraint webhook_deliveries_domain_event_key unique (domain, event_id)
);
create index if not exists webhook_deliveries_pending_idx on webhook_deliveries (domain, next_attempt_at) where status = 'pending';
create index if not exists webhook_deliveries_domain_seq_idx on webhook_deliveries (domain, seq desc);

create table if not exists webhook_attempts (
  delivery_id uuid        not null references webhook_deliveries (id) on delete cascade,
  attempt     int         not null check (attempt > 0),
  at          timestamptz not null,
  status_code int,
  duration_ms int         not null,
  error       text,
  primary key (delivery_id, attempt)
);

-- Secret rotation (an existing table upgrades in place; secret_id of older rows is filled in at
-- start by backfillSecretIds, which can unseal them).
alter table webhook_subscriptions
  add column if not exists secret_id                   text,
  add column if not exists secret_updated_at           timestamptz,
  add column if not exists previous_secret_sealed      text,
  add column if not exists previous_secret_valid_until timestamptz;
update webhook_subscriptions set secret_updated_at = updated_at where secret_updated_at is null;

-- Endpoint state (410 Gone disables a subscription) and the Retry-After an attempt was answered with.
alter table webhook_subscriptions
  add column if not exists status          text not null default 'active' check (status in ('active', 'disabled')),
  add column if not exists disabled_reason text,
  add column if not exists disabled_at     timestamptz;
alter table webhook_attempts add column if not exists retry_after_ms int;

-- Endpoint health: the last outcomes and the current run of failed deliveries (failing_since: when
-- the first delivery of that run was created).
alter table webhook_subscriptions
  add column if not exists last_success_at timestamptz,
  add column if not exists last_failure_at timestamptz,
  add column if not exists failed_in_a_row int not null default 0,
  add column if not exists failing_since   timestamptz;

-- Recovery after an outage: which recovery restarted a delivery.
alter table webhook_deliveries add column if not exists recovery_id uuid;

-- 'skipped': an event consumed while the subscription is disabled. The first release's inline
-- check is replaced once (a named constraint says it was done).
do $$ begin
  if not exists (select 1 from pg_constraint where conrelid = 'webhook_deliveries'::regclass and conname = 'webhook_deliveries_status_known') then
    alter table webhook_deliveries drop constraint if exists webhook_deliveries_status_check;
    alter table webhook_deliveries add constraint webhook_deliveries_status_known check (status in ('pending', 'delivered', 'failed', 'skipped'));
  end if;
end $$;

-- The operators' overview counts the last hour's deliveries by creation time; created_at never
-- changes, so updates stay HOT.
create index if not exists webhook_deliveries_created_at_idx on webhook_deliveries (created_at);
