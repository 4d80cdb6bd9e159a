-- Up Migration

-- ordering "fifo": a domain's events are attempted one at a time, in their order on the input topic.
alter table webhook_subscriptions
  add column ordering text not null default 'none' check (ordering in ('none', 'fifo'));

-- Where a delivery's event was on the input topic (null for deliveries made before this release).
-- The topic's key is the domain, so a domain's events share a partition and the offset orders them.
alter table webhook_deliveries
  add column source_partition integer,
  add column source_offset bigint;

-- A fifo domain's next delivery: its pending one earliest on the topic.
create index webhook_deliveries_fifo_head_idx on webhook_deliveries (domain, source_partition, source_offset, seq) where status = 'pending';

drop trigger webhook_subscription_updated on webhook_subscriptions;
create trigger webhook_subscription_updated after update on webhook_subscriptions
  for each row when (
    (old.domain, old.event_names, old.url, old.secret_sealed, old.secret_id, old.secret_updated_at, old.previous_secret_sealed,
     old.previous_secret_valid_until, old.status, old.disabled_reason, old.disabled_at, old.created_at, old.updated_at, old.signature_scheme,
     old.max_per_second, old.max_in_flight, old.ordering)
    is distinct from
    (new.domain, new.event_names, new.url, new.secret_sealed, new.secret_id, new.secret_updated_at, new.previous_secret_sealed,
     new.previous_secret_valid_until, new.status, new.disabled_reason, new.disabled_at, new.created_at, new.updated_at, new.signature_scheme,
     new.max_per_second, new.max_in_flight, new.ordering))
  execute function webhook_subscription_changed();
