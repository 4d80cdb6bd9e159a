-- Up Migration

-- Each domain's Test calls of the last minute, shared by every gateway copy: at most 2 in flight
-- and 10 a minute per domain. A call whose gateway died never gets `finished_at`; it stops
-- counting as in flight once it is older than any Test call can last.
create table gw_test_calls (
  id          uuid primary key,
  domain      text not null,
  started_at  timestamptz not null default now(),
  finished_at timestamptz
);
create index gw_test_calls_by_domain on gw_test_calls (domain, started_at);
