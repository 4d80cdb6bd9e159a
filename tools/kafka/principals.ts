/**
 * The principals of the contract ("Kafka security"): one per service and neighbour, and `admin`,
 * which manages the others. (No imports: the e2e suite's global set-up loads this without aliases.)
 */
export const SERVICE_PRINCIPALS = ['tail-sync', 'webhook-dispatcher', 'product', 'reader'] as const;
export type ServicePrincipal = (typeof SERVICE_PRINCIPALS)[number];
export const PRINCIPALS = ['admin', ...SERVICE_PRINCIPALS] as const;
export type Principal = (typeof PRINCIPALS)[number];
