-- Up Migration

-- The W3C trace context of the event a delivery was made for: each attempt is a span of that
-- trace, and the callback carries it on. Nullable, no default: adding it rewrites nothing.
alter table webhook_deliveries add column if not exists traceparent text;
