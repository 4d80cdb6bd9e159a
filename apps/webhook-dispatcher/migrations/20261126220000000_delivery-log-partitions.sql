-- Up Migration

-- Delivery-log retention: webhook_deliveries and webhook_attempts become tables partitioned by the
-- week (UTC, Monday to Monday) their delivery was created in, so the leader drops a week past
-- WEBHOOK_LOG_RETENTION_DAYS whole (delivery-log-retention.ts) instead of deleting rows. A
-- partition is named for its upper bound: webhook_deliveries_to_20261207 holds what was created
-- before 2026-12-07 (and from 2026-11-30), with its attempts in webhook_attempts_to_20261207.
--
-- The existing tables are not rewritten: each becomes the partition of everything created before
-- next Monday, bounded first by a check constraint (so attaching scans nothing again), and is dropped
-- whole once that week is past retention. On the existing log this builds two indexes (the key of
-- each table now holds the partition key) and copies each delivery's dedupe key.

-- A partitioned table's unique keys must hold its partition key, so "one delivery per domain and
-- event" (re-consumed messages) moves to this table. created_at is its delivery's: the keys of a
-- dropped week are deleted after it; id finds the delivery in its week.
create table webhook_delivery_keys (
  domain     text        not null,
  event_id   uuid        not null,
  id         uuid        not null,
  created_at timestamptz not null
);
insert into webhook_delivery_keys (domain, event_id, id, created_at) select domain, event_id, id, created_at from webhook_deliveries;
alter table webhook_delivery_keys add constraint webhook_delivery_keys_pkey primary key (domain, event_id);
create index webhook_delivery_keys_created_at_idx on webhook_delivery_keys using brin (created_at);

-- Creates the weekly partitions of both tables from the week of `from_time` up to `weeks` weeks
-- ahead, those not there yet. Serialised (copies starting at once).
create function webhook_delivery_log_add_weeks(from_time timestamptz, weeks integer) returns void language plpgsql as $$
declare
  monday timestamptz := date_trunc('week', from_time at time zone 'UTC') at time zone 'UTC';
  upper_bound timestamptz;
  suffix text;
begin
  perform pg_advisory_xact_lock(hashtextextended('webhook-delivery-log-weeks:' || current_schema(), 0));
  for w in 1..weeks + 1 loop
    upper_bound := monday + make_interval(days => 7 * w);
    suffix := 'to_' || to_char(upper_bound at time zone 'UTC', 'YYYYMMDD');
    if to_regclass(quote_ident('webhook_deliveries_' || suffix)) is null then
      execute format('create table %I partition of webhook_deliveries for values from (%L) to (%L)',
        'webhook_deliveries_' || suffix, upper_bound - interval '7 days', upper_bound);
    end if;
    if to_regclass(quote_ident('webhook_attempts_' || suffix)) is null then
      execute format('create table %I partition of webhook_attempts for values from (%L) to (%L)',
        'webhook_attempts_' || suffix, upper_bound - interval '7 days', upper_bound);
    end if;
  end loop;
end
$$;

do $$
declare
  upper_bound timestamptz := (date_trunc('week', now() at time zone 'UTC') + interval '7 days') at time zone 'UTC';
  d text := 'webhook_deliveries_to_' || to_char(upper_bound at time zone 'UTC', 'YYYYMMDD');
  a text := 'webhook_attempts_to_' || to_char(upper_bound at time zone 'UTC', 'YYYYMMDD');
begin
  -- The keys table dedupes now; attempts find their delivery by (id, created_at) in its week.
  alter table webhook_attempts drop constraint if exists webhook_attempts_delivery_id_fkey;
  alter table webhook_attempts drop constraint webhook_attempts_pkey;
  alter table webhook_deliveries drop constraint webhook_deliveries_pkey;
  alter table webhook_deliveries drop constraint webhook_deliveries_domain_event_key;

  -- The indexes the partitioned table has too keep their definition (attaching adopts them).
  execute format('alter table webhook_deliveries rename to %I', d);
  execute format('alter index webhook_deliveries_pending_idx rename to %I', d || '_pending_idx');
  execute format('alter index webhook_deliveries_domain_seq_idx rename to %I', d || '_domain_seq_idx');
  execute format('alter index webhook_deliveries_created_at_idx rename to %I', d || '_created_at_idx');
  execute format('alter index webhook_deliveries_fifo_head_idx rename to %I', d || '_fifo_head_idx');
  execute format('create table webhook_deliveries (like %I including defaults including constraints) partition by range (created_at)', d);
  alter sequence webhook_deliveries_seq_seq owned by webhook_deliveries.seq;
  alter table webhook_deliveries add constraint webhook_deliveries_pkey primary key (id, created_at);
  create index webhook_deliveries_pending_idx on webhook_deliveries (domain, next_attempt_at) where status = 'pending';
  create index webhook_deliveries_domain_seq_idx on webhook_deliveries (domain, seq desc);
  create index webhook_deliveries_created_at_idx on webhook_deliveries (created_at);
  create index webhook_deliveries_fifo_head_idx on webhook_deliveries (domain, (backfill_id is not null), source_partition, source_offset, seq) where status = 'pending';
  execute format('alter table %I add constraint bounded check (created_at < %L)', d, upper_bound);
  execute format('alter table webhook_deliveries attach partition %I for values from (minvalue) to (%L)', d, upper_bound);
  execute format('alter table %I drop constraint bounded', d);

  -- Attempts made before carry no delivery_created_at: -infinity (a default stored once, no rewrite)
  -- puts them in the same first partition as their deliveries.
  execute format('alter table webhook_attempts rename to %I', a);
  execute format('alter table %I add column delivery_created_at timestamptz not null default %L', a, '-infinity');
  execute format('alter table %I alter column delivery_created_at drop default', a);
  execute format('create table webhook_attempts (like %I including constraints) partition by range (delivery_created_at)', a);
  alter table webhook_attempts add constraint webhook_attempts_pkey primary key (delivery_id, delivery_created_at, attempt);
  execute format('alter table %I add constraint bounded check (delivery_created_at < %L)', a, upper_bound);
  execute format('alter table webhook_attempts attach partition %I for values from (minvalue) to (%L)', a, upper_bound);
  execute format('alter table %I drop constraint bounded', a);
end $$;

-- Rows of a week whose partition is missing (the leader keeps weeks ahead) still land somewhere.
create table webhook_deliveries_default partition of webhook_deliveries default;
create table webhook_attempts_default partition of webhook_attempts default;

select webhook_delivery_log_add_weeks(now(), 4);
