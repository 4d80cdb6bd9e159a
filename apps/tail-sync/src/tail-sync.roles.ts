import type { wire } from '@tailsync/contracts';
import type { MethodRoles } from '@tailsync/service-kit';

/**
 * Who may call each method of `TailSync` (contract: "Requests between services"). The admin API
 * reads a domain's tails as an operator; only an operator counts or reads across domains.
 */
export const TAIL_SYNC_ROLES: MethodRoles<wire.TailSyncDefinition> = {
  // Readiness reveals nothing of a domain: whoever the gateway calls for may ask.
  Ping: ['public', 'tenant', 'operator'],
  CreateOrMap: ['tenant'],
  Deactivate: ['tenant'],
  Reactivate: ['tenant'],
  ChangeTailNumber: ['tenant'],
  GetTail: ['tenant', 'operator'],
  GetTails: ['tenant', 'operator'],
  ListTails: ['tenant', 'operator'],
  GetTailHistory: ['tenant', 'operator'],
  CountTails: ['operator'],
  ReadActivity: ['operator'],
};
