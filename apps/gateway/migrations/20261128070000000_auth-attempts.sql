-- Up Migration

-- A client-secret sign-in is counted before its secret is checked (so parallel guesses cannot all
-- pass the check before the first failure is recorded): its rows are `checking` meanwhile, become
-- failures when the secret is wrong and are deleted when it is right, found by id.
alter table gw_auth_failures
  add column id bigint generated always as identity,
  add column checking boolean not null default false;
