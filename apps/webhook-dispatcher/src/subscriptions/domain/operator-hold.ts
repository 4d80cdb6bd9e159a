import type { DisabledReason } from '@tailsync/contracts';

/** Who asks to change a subscription's state: its domain (the tenant) or an operator (the admin API). */
export type SubscriptionActor = 'tenant' | 'operator';

/** What the hold says of a subscription as it is now (its `disabledReason`, null while active). */
export interface HeldState {
  disabledReason: DisabledReason | null;
}

/** The detail of the problem a tenant gets while an operator's disable holds. */
export const DISABLED_BY_THE_OPERATOR = 'The subscription is disabled by the operator: only an operator can enable it again.';

/**
 * Whether `actor` may enable, save or delete the subscription. An operator's disable holds until an
 * operator enables it: otherwise a tenant stopped for abuse would simply save its subscription
 * again (or delete and recreate it). Every other reason is the tenant's to clear.
 */
export function mayChange(held: HeldState | null, actor: SubscriptionActor): boolean {
  return actor === 'operator' || held?.disabledReason !== 'operator';
}
