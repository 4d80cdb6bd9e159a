import type { WriteBehindLeases } from '../attempts/write-behind-leases';
import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';
import type { NewDeliveries } from '../delivery-log/new-deliveries.store';
import type { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import type { FreshStorage, LeasedBehind } from '../scheduling/fresh-storage';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { DeliveryIntake } from './webhook-event.consumer';

/**
 * How the consumer's fresh deliveries enter this copy: those the scheduler has room for are leased
 * to it and queued for their first attempt now, with no claim round trip; the rest are stored for
 * the claims (of this copy or another). One call to the scheduler per admission: it decides the
 * room and the lease terms; this says where the rows go. `subscriptions` were read as the events
 * were consumed.
 */
export class DeliveryAdmission implements DeliveryIntake {
  /** The leased rows are inserted before the attempts start. */
  private readonly stored: FreshStorage<Promise<ClaimedDelivery[]>>;
  /** The leases are written behind the attempts (WriteBehindLeases). */
  private readonly writtenBehind: FreshStorage<LeasedBehind>;

  constructor(
    private readonly deliveries: NewDeliveries,
    private readonly scheduler: DeliveryScheduler,
    leaseWrites: WriteBehindLeases,
  ) {
    const storeForClaims = (rest: NewDelivery[]) => deliveries.insertMany(rest);
    this.stored = { lease: (take, { owner, leaseMs }) => deliveries.insertLeased(take, owner, leaseMs), storeForClaims };
    this.writtenBehind = { lease: (take, { owner, leaseMs }) => leaseWrites.lease(take, owner, leaseMs), storeForClaims };
  }

  /**
   * Stored, then attempted. Resolves once every delivery is durably stored (the consumer commits
   * its offsets after that); returns how many were new.
   */
  admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<number> {
    return this.scheduler.admit(fresh, subscriptions, this.stored);
  }

  /**
   * As {@link admit}, but the deliveries this copy has room for start their first attempt now, on
   * leases written behind them (WriteBehindLeases). Only for events no other copy can be attempting
   * (the consumer decides). The attempts start before the first `await`; resolves once the rest are
   * stored, and `stored` once the leases are written too, with how many deliveries were new.
   */
  admitAttemptingFirst(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<{ stored: Promise<number> }> {
    return this.scheduler.admitAttemptingFirst(fresh, subscriptions, this.writtenBehind);
  }

  /**
   * Stores deliveries due `holdMs` from now, for the claims: events the partition's previous owner
   * may be attempting, whose leases it may still be writing (and then takes these rows over).
   * Returns how many were new.
   */
  async hold(deliveries: NewDelivery[], holdMs: number): Promise<number> {
    const stored = await this.deliveries.insertMany(deliveries, holdMs);
    if (stored > 0) this.scheduler.wakeIn(holdMs);
    return stored;
  }
}
