import type { WriteBehindLeases } from '../attempts/write-behind-leases';
import type { NewDelivery } from '../delivery-log/delivery';
import type { NewDeliveries } from '../delivery-log/new-deliveries.store';
import type { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { DeliveryIntake } from './webhook-event.consumer';

/**
 * How the consumer's fresh deliveries enter this copy: those the scheduler has room for are leased
 * to it and queued for their first attempt now, with no claim round trip; the rest are stored for
 * the claims (of this copy or another). `subscriptions` were read as the events were consumed.
 */
export class DeliveryAdmission implements DeliveryIntake {
  constructor(
    private readonly deliveries: NewDeliveries,
    private readonly scheduler: DeliveryScheduler,
    private readonly leaseWrites: WriteBehindLeases,
  ) {}

  /**
   * Stored, then attempted. Resolves once every delivery is durably stored (the consumer commits
   * its offsets after that); returns how many were new.
   */
  async admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<number> {
    const { take, rest } = this.scheduler.roomFor(fresh, subscriptions);
    const { owner, leaseMs } = this.scheduler.leaseTerms;
    const claimedAt = Date.now();
    const [leased, queued] = await this.scheduler.reserving(take, Promise.allSettled([this.deliveries.insertLeased(take, owner, leaseMs), this.storeForClaims(rest)]));
    // Stored: these are ours to run even if the other insert failed (the batch is consumed again).
    if (leased.status === 'fulfilled' && leased.value.length > 0) await this.scheduler.accept(leased.value, subscriptions, claimedAt);
    if (leased.status === 'rejected') throw leased.reason;
    if (queued.status === 'rejected') throw queued.reason;
    return leased.value.length + queued.value;
  }

  /**
   * As {@link admit}, but the deliveries this copy has room for start their first attempt now, on
   * leases written behind them (WriteBehindLeases). Only for events no other copy can be attempting
   * (the consumer decides). The attempts start before the first `await`; resolves once the rest are
   * stored, and `stored` once the leases are written too, with how many deliveries were new.
   */
  async admitAttemptingFirst(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<{ stored: Promise<number> }> {
    const { take, rest } = this.scheduler.roomFor(fresh, subscriptions);
    const { owner, leaseMs } = this.scheduler.leaseTerms;
    const { leased, written } = this.leaseWrites.lease(take, owner, leaseMs);
    if (leased.length > 0) void this.scheduler.accept(leased, subscriptions, Date.now());
    // A failure here fails the batch, which is consumed again; its attempts' leases are not made twice.
    const queued = await this.storeForClaims(rest);
    const stored = written.then((n) => n + queued);
    stored.catch(() => undefined); // a caller that stops waiting leaves no unhandled rejection behind
    return { stored };
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

  /** Inserts deliveries due now, and has the scheduler look for them (it may have room by then). */
  private async storeForClaims(deliveries: NewDelivery[]): Promise<number> {
    const stored = await this.deliveries.insertMany(deliveries);
    if (stored > 0) this.scheduler.wake();
    return stored;
  }
}
