-- Up Migration

-- The PostgreSQL event store's tables (libs/event-store, PostgresEventStore). Before versioned
-- migrations the adapter made them at start with the same `if not exists` statements, so on a
-- database it made this changes nothing but the key move below, and that only on tables older still.

create table if not exists es_events (
  position    bigserial   not null,
  tx          xid8        not null default pg_current_xact_id(),
  stream_id   text        not null,
  version     int         not null check (version > 0),
  event_id    uuid        not null,
  type        text        not null,
  data        jsonb       not null,
  metadata    jsonb       not null default '{}'::jsonb,
  recorded_at timestamptz not null default now(),
  -- (tx, position) is the global order readAll reads in.
  constraint es_events_pkey primary key (tx, position),
  constraint es_events_event_id_key unique (event_id),
  constraint es_events_stream_version_key unique (stream_id, version)
);

-- Tables made before the key was (tx, position) had it on position, and a second index on
-- (tx, position) for readAll: one index entry more per event. The new key's index is built over
-- the whole table, holding its lock (writes wait: about 10 s for 4 million events).
do $$
begin
  if (select array_agg(a.attname::text order by k.ord)
        from pg_index i
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
       where i.indrelid = 'es_events'::regclass and i.indisprimary) = array['position'] then
    create unique index es_events_pkey_new on es_events (tx, position);
    alter table es_events drop constraint es_events_pkey, add constraint es_events_pkey primary key using index es_events_pkey_new;
    drop index if exists es_events_tx_position_idx;
  end if;
end $$;

-- One row per stream (its version), locked by appends; a stream appendAsPartOf created has
-- none until its next append.
create table if not exists es_streams (
  stream_id text not null,
  version   int  not null check (version >= 0),
  constraint es_streams_pkey primary key (stream_id)
);
