-- Up Migration

-- A subscription's operational events (SubscriptionSaved, …) wait here until the relay has put them
-- on tailsync.webhook-subscriptions, so a change made while the broker is down is announced once it
-- is back, and no request waits for the broker. `event` is the message value, `domain` its key.
create table webhook_subscription_event_outbox (
  seq bigserial primary key,
  domain text not null,
  event jsonb not null,
  created_at timestamptz not null default now()
);
