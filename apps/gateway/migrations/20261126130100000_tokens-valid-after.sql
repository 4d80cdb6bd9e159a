-- Up Migration

-- Access tokens of an account issued before this instant are refused (set by RotateSecret,
-- Disable and Delete; Enable leaves it). Accounts disabled or deleted before this column existed
-- get the time of that change.
alter table gw_service_accounts add column tokens_valid_after timestamptz;
update gw_service_accounts set tokens_valid_after = status_changed_at where status <> 'active';
create index gw_service_accounts_tokens_valid_after on gw_service_accounts (tokens_valid_after) where tokens_valid_after is not null;
