-- Up Migration

-- Who holds each tail number and mapped id (PostgresReservations): rows changed in the same
-- transaction as the append of their tail's events. Only tail-sync with its events in PostgreSQL
-- writes them; with EventStoreDB the reservations are streams there and the table stays empty.
--
-- Versions before this table kept reservations as streams of the event store (`tailnumber-…`,
-- `mappedid-…`). When the table is new and such streams exist, it is filled from them once, as
-- evolveReservation folds them: a claim sets the holder, and a release or withdrawal by that
-- holder frees the key; the version is the stream's.
do $$
begin
  if to_regclass('tail_reservations') is null then
    create table tail_reservations (
      key     text   primary key,
      holder  bigint,
      version int    not null check (version > 0)
    );
    if to_regclass('es_events') is not null then
      insert into tail_reservations (key, holder, version)
      select s.stream_id,
             case when exists (select 1 from es_events r
                                where r.stream_id = s.stream_id and r.version > claim.version
                                  and r.type in ('TailNumberReleased', 'ClaimWithdrawn')
                                  and (r.data->>'tailId')::bigint = (claim.data->>'tailId')::bigint)
                  then null
                  else (claim.data->>'tailId')::bigint end,
             s.version
        from (select stream_id, max(version) as version from es_events
               where stream_id like 'tailnumber-%' or stream_id like 'mappedid-%'
               group by stream_id) s
        left join lateral (select version, data from es_events
                            where stream_id = s.stream_id and type in ('TailNumberClaimed', 'MappedIdClaimed')
                            order by version desc limit 1) claim on true;
    end if;
  end if;
end $$;
