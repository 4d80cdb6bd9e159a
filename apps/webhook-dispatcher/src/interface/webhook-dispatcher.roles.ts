import type { wire } from '@tailsync/contracts';
import type { MethodRoles } from '@tailsync/service-kit';

/**
 * Who may call each method of `WebhookDispatcher` (contract: "Requests between services"). The
 * admin API acts on a domain's subscription and deliveries as an operator; only an operator
 * disables a subscription or reads across domains; the public JWK Set is all a `public` caller gets.
 */
export const WEBHOOK_DISPATCHER_ROLES: MethodRoles<wire.WebhookDispatcherDefinition> = {
  // Readiness reveals nothing of a domain: whoever the gateway calls for may ask.
  Ping: ['public', 'tenant', 'operator'],
  PutSubscription: ['tenant'],
  GetSubscription: ['tenant', 'operator'],
  DeleteSubscription: ['tenant'],
  // The tenant's Enable cannot lift an operator's Disable; the operator's can.
  EnableSubscription: ['tenant'],
  EnableSubscriptionByOperator: ['operator'],
  DisableSubscription: ['operator'],
  TestSubscription: ['tenant', 'operator'],
  ListDeliveries: ['tenant', 'operator'],
  Redeliver: ['tenant', 'operator'],
  RecoverDeliveries: ['tenant', 'operator'],
  BackfillDeliveries: ['tenant', 'operator'],
  GetBackfill: ['tenant', 'operator'],
  CancelBackfill: ['tenant', 'operator'],
  // Only the console lists a domain's jobs.
  ListBackfills: ['operator'],
  GetSigningKeySet: ['public', 'tenant'],
  // An operator sees a domain's keys to revoke one; rotating stays the domain's own decision.
  ListSigningKeys: ['tenant', 'operator'],
  RotateSigningKey: ['tenant'],
  // The event says who revoked: each role has its own method, as for Enable.
  RevokeSigningKey: ['tenant'],
  RevokeSigningKeyByOperator: ['operator'],
  ReadActivity: ['operator'],
  // The polling door: the tenant's own events only.
  ListEvents: ['tenant'],
};
