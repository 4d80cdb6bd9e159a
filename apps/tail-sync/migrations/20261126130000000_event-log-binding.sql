-- Up Migration

-- The event store log the readers' checkpoints (rm_checkpoints) are positions in. A checkpoint
-- means nothing in another log (EVENT_STORE switched, an EventStoreDB volume wiped): tail-sync
-- binds the read model to its log at first start and refuses to start on another.
create table if not exists rm_event_log (
  only_row  boolean     primary key default true check (only_row),
  log       text        not null,
  bound_at  timestamptz not null default now()
);
