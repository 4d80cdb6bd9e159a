-- Up Migration

-- Every dispatcher copy keeps the subscriptions it delivers to in memory (subscription-cache.ts) and
-- drops one when PostgreSQL notifies that it changed: on insert, delete, and any update but the
-- health figures each recorded attempt moves (last success or failure, the run of failures). A
-- column added to the table later belongs in the update trigger's list unless it is such a figure.
-- The notice is sent on commit; its payload is the domain.
create or replace function webhook_subscription_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('webhook_subscription_changed', coalesce(new.domain, old.domain));
  return null;
end
$$;

create trigger webhook_subscription_saved_or_deleted after insert or delete on webhook_subscriptions
  for each row execute function webhook_subscription_changed();

create trigger webhook_subscription_updated after update on webhook_subscriptions
  for each row when (
    (old.domain, old.event_names, old.url, old.secret_sealed, old.secret_id, old.secret_updated_at, old.previous_secret_sealed,
     old.previous_secret_valid_until, old.status, old.disabled_reason, old.disabled_at, old.created_at, old.updated_at)
    is distinct from
    (new.domain, new.event_names, new.url, new.secret_sealed, new.secret_id, new.secret_updated_at, new.previous_secret_sealed,
     new.previous_secret_valid_until, new.status, new.disabled_reason, new.disabled_at, new.created_at, new.updated_at))
  execute function webhook_subscription_changed();
