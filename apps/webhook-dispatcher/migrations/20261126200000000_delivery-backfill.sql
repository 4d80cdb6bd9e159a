-- Up Migration

-- Backfill: which backfill made a delivery (of an event read again from the input topic).
alter table webhook_deliveries add column backfill_id uuid;

-- A fifo domain's live deliveries come before its backfilled ones: each kind in the topic's order.
drop index webhook_deliveries_fifo_head_idx;
create index webhook_deliveries_fifo_head_idx on webhook_deliveries (domain, (backfill_id is not null), source_partition, source_offset, seq) where status = 'pending';
