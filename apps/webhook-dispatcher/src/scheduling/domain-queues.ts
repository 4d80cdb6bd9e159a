import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import { nextAllowance } from './domain/adaptive-allowance';
import { isCapped, type FlowLimits } from './flow-gate';

/** A leased delivery waiting in this copy for a free slot. */
export interface Queued {
  delivery: ClaimedDelivery;
  subscription: StoredSubscription | undefined;
  claimedAt: number;
}

/**
 * What one copy holds per domain: the attempts it runs, the leased deliveries queued behind them
 * and the room promised to inserts on their way; and how many of a domain's attempts may run at
 * once (its subscription's `maxInFlight`, or its adaptive allowance, within `domainConcurrency`).
 * The DeliveryScheduler's bookkeeping, kept apart from its I/O.
 */
export class DomainQueues {
  private inFlightTotal = 0;
  private readonly running = new Map<string, number>();
  private readonly queues = new Map<string, Queued[]>();
  private queuedTotal = 0;
  /** Room promised to fresh deliveries whose leased insert is on its way. */
  private readonly reserved = new Map<string, number>();
  private reservedTotal = 0;
  /** The caps of the domains with queued or running attempts, as their subscriptions said when claimed. */
  private readonly limits = new Map<string, FlowLimits>();
  /** Uncapped domains whose allowance is below domainConcurrency after overload answers. */
  private readonly allowances = new Map<string, number>();

  constructor(private readonly options: { maxConcurrency: number; domainConcurrency: number }) {}

  get inFlight(): number {
    return this.inFlightTotal;
  }

  /** Leased rows this copy may still take: the attempts it may run plus as many queued behind them. */
  free(): number {
    return 2 * this.options.maxConcurrency - this.inFlightTotal - this.queuedTotal - this.reservedTotal;
  }

  /** Per domain, at most twice what it may run at once is held (running + queued + reserved). */
  roomOf(domain: string): number {
    const held = (this.running.get(domain) ?? 0) + (this.queues.get(domain)?.length ?? 0) + (this.reserved.get(domain) ?? 0);
    const limits = this.limits.get(domain);
    // A rate cap runs few at once: hold about a second's worth, so rows do not outwait their leases here.
    const paced = limits?.maxPerSecond == null ? Infinity : Math.max(1, limits.maxPerSecond);
    return Math.max(0, 2 * Math.min(this.capOf(domain), paced) - held);
  }

  /** The room left of every domain this copy holds anything of (a claim's per-domain limits). */
  rooms(): Map<string, number> {
    const room = new Map<string, number>();
    for (const domain of new Set([...this.running.keys(), ...this.queues.keys(), ...this.reserved.keys()])) room.set(domain, this.roomOf(domain));
    return room;
  }

  /**
   * Which deliveries fit in `free` slots and their domains' room (`take`), and the rest. A fifo
   * domain's are all left to the claims, which take them one at a time in the topic's order.
   */
  split(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>, free: number): { take: NewDelivery[]; rest: NewDelivery[] } {
    const take: NewDelivery[] = [];
    const rest: NewDelivery[] = [];
    const room = new Map<string, number>();
    for (const delivery of fresh) {
      const left = room.get(delivery.domain) ?? this.roomOf(delivery.domain);
      if (free > 0 && left > 0 && subscriptions.get(delivery.domain)?.ordering !== 'fifo') {
        take.push(delivery);
        room.set(delivery.domain, left - 1);
        free--;
      } else {
        rest.push(delivery);
        room.set(delivery.domain, left);
      }
    }
    return { take, rest };
  }

  /** Promises room to deliveries being inserted (`+1`), or takes the promise back once they are (`-1`). */
  reserve(deliveries: NewDelivery[], sign: 1 | -1): void {
    for (const { domain } of deliveries) {
      const n = (this.reserved.get(domain) ?? 0) + sign;
      if (n > 0) this.reserved.set(domain, n);
      else this.reserved.delete(domain);
    }
    this.reservedTotal += sign * deliveries.length;
  }

  enqueue(leased: ClaimedDelivery[], subscriptions: Map<string, StoredSubscription>, claimedAt: number): void {
    for (const delivery of leased) {
      const queue = this.queues.get(delivery.domain) ?? [];
      const subscription = subscriptions.get(delivery.domain);
      if (subscription) this.limits.set(delivery.domain, { maxPerSecond: subscription.maxPerSecond, maxInFlight: subscription.maxInFlight });
      queue.push({ delivery, subscription, claimedAt });
      this.queues.set(delivery.domain, queue);
      this.queuedTotal++;
    }
  }

  /**
   * Takes queued deliveries off their queues while their domain (and the copy) has a free slot:
   * the caller either starts each ({@link started}) or hands it back.
   */
  *startable(): Generator<Queued> {
    for (const [domain, queue] of this.queues) {
      while (queue.length > 0 && this.inFlightTotal < this.options.maxConcurrency && (this.running.get(domain) ?? 0) < this.capOf(domain)) {
        this.queuedTotal--;
        yield queue.shift()!;
      }
      if (queue.length === 0) {
        this.queues.delete(domain);
        if (!this.running.has(domain)) this.limits.delete(domain);
      }
    }
  }

  started(domain: string): void {
    this.inFlightTotal++;
    this.running.set(domain, (this.running.get(domain) ?? 0) + 1);
  }

  finished(domain: string): void {
    this.inFlightTotal--;
    const left = (this.running.get(domain) ?? 1) - 1;
    if (left > 0) this.running.set(domain, left);
    else {
      this.running.delete(domain);
      if (!this.queues.has(domain)) this.limits.delete(domain);
    }
  }

  /** An uncapped domain's allowance after an attempt's answer (halved on overload, whole again on a success). */
  adapt(domain: string, answer: { statusCode: number | null; retryAfterGiven: boolean }): void {
    const full = this.options.domainConcurrency;
    const next = nextAllowance(this.allowances.get(domain) ?? full, full, answer);
    if (next >= full) this.allowances.delete(domain);
    else this.allowances.set(domain, next);
  }

  /** Empties every queue, returning the deliveries that were waiting. */
  takeAll(): ClaimedDelivery[] {
    const items = [...this.queues.values()].flat().map((q) => q.delivery);
    this.queues.clear();
    this.queuedTotal = 0;
    return items;
  }

  /** Attempts of the domain this copy runs at once: its maxInFlight, or its adaptive allowance (both within domainConcurrency). */
  private capOf(domain: string): number {
    const limits = this.limits.get(domain);
    const cap = isCapped(limits) ? limits.maxInFlight ?? Infinity : this.allowances.get(domain) ?? Infinity;
    return Math.min(this.options.domainConcurrency, cap);
  }
}
