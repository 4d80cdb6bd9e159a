-- Up Migration

-- A deleted subscription, or one switched to HMAC, now has its Ed25519 keys leave the public JWK Set
-- a grace period after the change (SigningKeyStore.withdraw). Keys left behind by such changes
-- before this release leave a day from now (the default WEBHOOK_SECRET_GRACE_SECONDS), so the set
-- stops telling who exists and who used Ed25519.
update webhook_signing_keys k
   set retires_at = now() + interval '1 day'
 where (k.retires_at is null or k.retires_at > now() + interval '1 day')
   and not exists (select 1 from webhook_subscriptions s where s.domain = k.domain and s.signature_scheme = 'ed25519');
