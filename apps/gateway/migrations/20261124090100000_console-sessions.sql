-- Up Migration

-- Operators' console sessions signed out before they expire (their nonce, kept until then).
-- Before there were migrations the gateway ran this statement at start.
create table if not exists gw_console_signed_out (
  nonce      text primary key,
  expires_at timestamptz not null
);
