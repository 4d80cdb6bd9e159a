import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';

/** The owner and length of the leases fresh deliveries are taken under. */
export interface LeaseTerms {
  owner: string;
  leaseMs: number;
}

/** Leases written behind their first attempts: the rows leased now, and how many were new once written. */
export interface LeasedBehind {
  leased: ClaimedDelivery[];
  written: Promise<number>;
}

/** Where an admission stores fresh deliveries: those this copy takes, leased to it; the rest, for the claims (how many were new). */
export interface FreshStorage<Leased> {
  lease(take: NewDelivery[], terms: LeaseTerms): Leased;
  storeForClaims(rest: NewDelivery[]): Promise<number>;
}
