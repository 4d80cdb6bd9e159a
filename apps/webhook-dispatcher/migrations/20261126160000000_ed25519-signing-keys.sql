-- Up Migration

-- signatureScheme "ed25519": a subscription signs with its domain's Ed25519 key instead of a shared
-- secret, which then becomes optional (a saved secret stays, unused, until the scheme changes back).
alter table webhook_subscriptions
  add column signature_scheme text not null default 'hmac-sha256' check (signature_scheme in ('hmac-sha256', 'ed25519')),
  alter column secret_sealed drop not null;

-- Each domain's Ed25519 key pairs. `private_seed_sealed` is the 32-byte seed sealed with SecretBox
-- (WEBHOOK_SECRET_KEY, bound to the domain and the key id). A key signs from `signs_from` until a
-- newer key's `signs_from`, and is published in the JWK Set from `created_at` until `retires_at`
-- (null while no newer key exists): a rotation publishes the new key a grace period before it signs,
-- and keeps the old one a grace period after.
create table webhook_signing_keys (
  domain text not null,
  kid text not null,
  public_key text not null,
  private_seed_sealed text not null,
  created_at timestamptz not null default now(),
  signs_from timestamptz not null,
  retires_at timestamptz,
  primary key (domain, kid)
);

-- Every copy keeps the keys with the subscription (subscription-cache.ts): a key change notifies the
-- domain as a subscription change does.
create trigger webhook_signing_key_changed after insert or update or delete on webhook_signing_keys
  for each row execute function webhook_subscription_changed();

drop trigger webhook_subscription_updated on webhook_subscriptions;
create trigger webhook_subscription_updated after update on webhook_subscriptions
  for each row when (
    (old.domain, old.event_names, old.url, old.secret_sealed, old.secret_id, old.secret_updated_at, old.previous_secret_sealed,
     old.previous_secret_valid_until, old.status, old.disabled_reason, old.disabled_at, old.created_at, old.updated_at, old.signature_scheme)
    is distinct from
    (new.domain, new.event_names, new.url, new.secret_sealed, new.secret_id, new.secret_updated_at, new.previous_secret_sealed,
     new.previous_secret_valid_until, new.status, new.disabled_reason, new.disabled_at, new.created_at, new.updated_at, new.signature_scheme))
  execute function webhook_subscription_changed();
