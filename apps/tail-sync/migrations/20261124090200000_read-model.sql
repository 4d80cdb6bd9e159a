-- Up Migration

-- The read model the projection writes and the queries read, and the readers' checkpoints.
-- Before there were migrations the projection made these at start with the same `if not exists`
-- statements, so on a database it made this changes nothing but the key move below, and that
-- only on a tails table older still. The rows themselves are rebuilt from the event store by
-- `rebuild-projections`, never by a migration.

-- One row per reader (the projection, the relay): the global position it has applied up to.
create table if not exists rm_checkpoints (
  name       text        primary key,
  checkpoint text        not null,
  updated_at timestamptz not null default now()
);

create table if not exists rm_tails (
  tail_id             bigint      not null,
  domain              text        not null,
  tail_number         text        not null,
  tail_number_key     text        not null,
  registration_number text,
  icao_type_name      text,
  vendor_type_name    text,
  country_code        text,
  passenger_seating   int,
  status              text        not null check (status in ('active', 'inactive')),
  version             int         not null,
  created_at          timestamptz not null,
  updated_at          timestamptz not null,
  -- Every query names the domain: one key serves lookups by id and the domain's listing.
  constraint rm_tails_pkey primary key (domain, tail_id)
);
create index if not exists rm_tails_domain_number_idx on rm_tails (domain, tail_number_key);

create table if not exists rm_tail_mappings (
  domain        text   not null,
  source        text   not null,
  mapped_id     text   not null,
  tail_id       bigint not null,
  added_version int    not null,
  primary key (domain, source, mapped_id)
);
create index if not exists rm_tail_mappings_tail_id_idx on rm_tail_mappings (tail_id);

-- A tails table made before its key was (domain, tail_id) had it on tail_id, and a second index
-- on (domain, tail_id): the key moves there and the second index goes.
do $$
begin
  if (select array_agg(a.attname::text order by k.ord)
        from pg_index i
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
       where i.indrelid = 'rm_tails'::regclass and i.indisprimary) = array['tail_id'] then
    create unique index rm_tails_pkey_new on rm_tails (domain, tail_id);
    alter table rm_tails drop constraint rm_tails_pkey, add constraint rm_tails_pkey primary key using index rm_tails_pkey_new;
    drop index if exists rm_tails_domain_tail_id_idx;
  end if;
end $$;
