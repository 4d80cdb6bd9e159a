-- Up Migration

-- Flow control: a subscription may cap its attempts per second and in flight, across every copy.
alter table webhook_subscriptions
  add column max_per_second integer check (max_per_second between 1 and 1000),
  add column max_in_flight integer check (max_in_flight between 1 and 100);

-- The attempts of capped domains in flight, one row per attempt (its holder), until released or
-- until `until` (a copy that died mid-attempt lets go of its holds when they run out).
create table webhook_flow_holds (
  holder uuid primary key,
  domain text not null,
  until timestamptz not null
);
create index webhook_flow_holds_domain_idx on webhook_flow_holds (domain);

-- When a capped domain's next attempt may start (its attempts are spaced 1 / max_per_second apart).
create table webhook_flow_rate (
  domain text primary key,
  next_at timestamptz not null
);

-- Takes a place for one attempt of the domain, or says how long to wait (ms) before asking again:
-- 0 when taken. One statement, serialised per domain by a transaction-level advisory lock, so
-- copies asking at once never take more than the caps allow.
create function webhook_flow_acquire(p_domain text, p_holder uuid, p_max_in_flight integer, p_interval_ms float8, p_hold_ms float8)
returns float8 language plpgsql as $$
declare
  held integer;
  next_start timestamptz;
  now_ts timestamptz := clock_timestamp();
begin
  perform pg_advisory_xact_lock(hashtextextended('webhook-flow:' || p_domain, 0));
  if p_max_in_flight is not null then
    delete from webhook_flow_holds where domain = p_domain and until < now_ts;
    select count(*) into held from webhook_flow_holds where domain = p_domain;
    if held >= p_max_in_flight then
      return 25;
    end if;
  end if;
  if p_interval_ms is not null then
    select next_at into next_start from webhook_flow_rate where domain = p_domain;
    if next_start is not null and next_start > now_ts then
      return greatest(1, extract(epoch from next_start - now_ts) * 1000);
    end if;
    insert into webhook_flow_rate (domain, next_at) values (p_domain, now_ts + p_interval_ms * interval '1 millisecond')
      on conflict (domain) do update set next_at = excluded.next_at;
  end if;
  if p_max_in_flight is not null then
    insert into webhook_flow_holds (holder, domain, until) values (p_holder, p_domain, now_ts + p_hold_ms * interval '1 millisecond');
  end if;
  return 0;
end
$$;

drop trigger webhook_subscription_updated on webhook_subscriptions;
create trigger webhook_subscription_updated after update on webhook_subscriptions
  for each row when (
    (old.domain, old.event_names, old.url, old.secret_sealed, old.secret_id, old.secret_updated_at, old.previous_secret_sealed,
     old.previous_secret_valid_until, old.status, old.disabled_reason, old.disabled_at, old.created_at, old.updated_at, old.signature_scheme,
     old.max_per_second, old.max_in_flight)
    is distinct from
    (new.domain, new.event_names, new.url, new.secret_sealed, new.secret_id, new.secret_updated_at, new.previous_secret_sealed,
     new.previous_secret_valid_until, new.status, new.disabled_reason, new.disabled_at, new.created_at, new.updated_at, new.signature_scheme,
     new.max_per_second, new.max_in_flight))
  execute function webhook_subscription_changed();
