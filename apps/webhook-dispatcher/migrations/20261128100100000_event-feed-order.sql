-- Up Migration

-- The polling door (GET /WebhookSubscriptions/Events) reads a domain's deliveries in the order of
-- the transaction that wrote each. A `seq` alone cannot be followed with an iterator: a row may
-- commit after one with a higher `seq` has been read, and a reader that moved past it would never
-- see it. The door shows only rows whose transaction is older than every one still running
-- (pg_snapshot_xmin), in (writer_xact, seq) order, so nothing commits behind its iterator.
--
-- Added without a default, then given one: no rewrite of the log. Rows written before have none
-- and come first (read as transaction 0).
alter table webhook_deliveries add column writer_xact xid8;
alter table webhook_deliveries alter column writer_xact set default pg_current_xact_id();
create index webhook_deliveries_feed_idx on webhook_deliveries (domain, (coalesce(writer_xact, '0'::xid8)), seq);
