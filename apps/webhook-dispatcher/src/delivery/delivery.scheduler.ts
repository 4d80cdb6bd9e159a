import { Logger } from '@nestjs/common';
import { PollingLoop, type TurnOutcome } from '@tailsync/service-kit';
import type { SubscriptionReader } from '../subscriptions/subscription-cache';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { AttemptRecorder } from './attempt.recorder';
import type { AttemptAnswer, AttemptRunner } from './attempt.runner';
import type { DeliveryMetrics } from './delivery.metrics';
import type { ClaimedDelivery, DeliveryStore, NewDelivery } from './delivery.store';
import { nextAllowance } from './domain/adaptive-allowance';
import { isCapped, type FlowGate, type FlowLimits, type FlowPermit } from './flow-gate';
import type { WriteBehindLeases } from './write-behind-leases';

export interface SchedulerOptions {
  /** Names this copy as the owner of its leases. */
  owner: string;
  attemptTimeoutMs: number;
  maxConcurrency: number;
  domainConcurrency: number;
  pollIntervalMs: number;
  /** How many due deliveries one claim takes at most. Default 200. */
  claimBatch?: number;
  /** A lease outlives the attempt's time limit by this much (time to record the result). Default 5000 ms. */
  leaseMarginMs?: number;
  /** After attempts finish, wait this long for more to finish before claiming again. Default 5 ms. */
  coalesceMs?: number;
}

interface Queued {
  delivery: ClaimedDelivery;
  subscription: StoredSubscription | undefined;
  claimedAt: number;
}

/**
 * Runs delivery attempts, each under a lease in PostgreSQL (so copies share the work and never run
 * one attempt twice), concurrently with a cap per domain (a hanging receiver ties up at most
 * `domainConcurrency` slots; other domains keep theirs).
 *
 * A subscription's caps (`maxInFlight`, `maxPerSecond`) hold across every copy: each attempt of a
 * capped domain first takes a place from the {@link FlowGate} (PostgreSQL), waiting for one within
 * its lease. An uncapped domain's allowance in this copy halves on answers that say the receiver is
 * overwhelmed (503…, or 429 without Retry-After) and comes back whole on a success.
 *
 * Fresh deliveries come from the consumer ({@link admit}): inserted already leased to this copy
 * and queued at once, with no claim round trip. Everything else (retries coming due, deliveries
 * that found no room here, other copies' inserts, redeliveries) is claimed by a polling loop, which
 * claims again soon after attempts finish while it knows of more due rows.
 */
export class DeliveryScheduler {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly loop: PollingLoop;
  private running = false;
  private inFlight = 0;
  private readonly perDomain = new Map<string, number>();
  private readonly queues = new Map<string, Queued[]>();
  private queuedTotal = 0;
  /** Room promised to fresh deliveries whose leased insert is on its way. */
  private readonly reserved = new Map<string, number>();
  private reservedTotal = 0;
  /** Where the next claim's round-robin over domains starts. */
  private lastDomain = '';
  /** Due rows may be waiting that this copy has not leased: claim again as slots free. */
  private backlog = false;
  private readonly attemptsInFlight = new Set<Promise<void>>();
  private depthTimer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  /** The caps of the domains with queued or running attempts, as their subscriptions said when claimed. */
  private readonly limits = new Map<string, FlowLimits>();
  /** Uncapped domains whose allowance is below domainConcurrency after overload answers. */
  private readonly allowances = new Map<string, number>();

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly subscriptions: SubscriptionReader,
    private readonly runner: AttemptRunner,
    private readonly recorder: AttemptRecorder,
    private readonly metrics: DeliveryMetrics,
    private readonly options: SchedulerOptions,
    private readonly leaseWrites: WriteBehindLeases,
    private readonly gate: FlowGate,
  ) {
    this.loop = new PollingLoop(() => this.claimTurn(), {
      idleMs: options.pollIntervalMs,
      errorBackoffMs: Math.max(options.pollIntervalMs, 500),
      onError: (error) => this.logger.warn({ msg: 'claiming due deliveries failed; retrying', error: (error as Error).message }),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop.start();
    const refresh = () =>
      this.deliveries.pendingCount().then((n) => this.metrics.queueDepth.set(n), () => undefined);
    void refresh();
    this.depthTimer = setInterval(refresh, 5000);
    this.depthTimer.unref();
  }

  /** Stops claiming, lets the attempts in flight finish (they are bounded by the attempt timeout) and records them. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const deadline = Date.now() + this.options.attemptTimeoutMs + 10_000;
    clearInterval(this.depthTimer);
    clearTimeout(this.wakeTimer);
    await this.loop.stop();
    // Queued first attempts' leases are written before they are handed back, or their release would find no row.
    await this.leaseWrites.drain(deadline);
    await this.releaseQueued();
    await Promise.allSettled([...this.attemptsInFlight]);
    await this.recorder.drain(deadline);
  }

  /** Look for due deliveries now (one was redelivered, or a recovery started). */
  wake(): void {
    this.backlog = true;
    this.loop.wake();
  }

  get activeAttempts(): number {
    return this.inFlight;
  }

  /**
   * Takes fresh pending deliveries of consumed events: as many as this copy has room for are
   * inserted leased to it and queued for their first attempt now; the rest are inserted for the
   * claims (of this copy or another). `subscriptions` were read as the events were consumed.
   * Resolves once every delivery is durably stored (the consumer commits its offsets after that);
   * returns how many were new.
   */
  async admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<number> {
    const { take, rest } = this.split(fresh, subscriptions);
    this.reserve(take, 1);
    const claimedAt = Date.now();
    const [leased, queued] = await Promise.allSettled([
      this.deliveries.insertLeased(take, this.options.owner, this.leaseMs),
      this.storeForClaims(rest),
    ]).finally(() => this.reserve(take, -1));
    if (leased.status === 'fulfilled' && leased.value.length > 0) {
      // Stored: these are ours to run even if the other insert failed (the batch is consumed again).
      this.enqueue(leased.value, subscriptions, claimedAt);
      if (this.running) this.pump();
      else await this.releaseQueued();
    }
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
    const { take, rest } = this.split(fresh, subscriptions);
    const { leased, written } = this.leaseWrites.lease(take, this.options.owner, this.leaseMs);
    if (leased.length > 0) {
      this.enqueue(leased, subscriptions, Date.now());
      this.pump();
    }
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
    if (stored > 0) setTimeout(() => this.running && this.wake(), holdMs).unref();
    return stored;
  }

  /** Inserts deliveries due now, and looks for them (this copy may have room by then). */
  private async storeForClaims(deliveries: NewDelivery[]): Promise<number> {
    const stored = await this.deliveries.insertMany(deliveries);
    if (stored > 0) this.wake();
    return stored;
  }

  /**
   * Which deliveries this copy has room for now (per domain and in all), and the rest. A fifo
   * domain's are all left to the claims, which take them one at a time in the topic's order.
   */
  private split(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): { take: NewDelivery[]; rest: NewDelivery[] } {
    const take: NewDelivery[] = [];
    const rest: NewDelivery[] = [];
    let free = this.running ? this.free() : 0;
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

  private get leaseMs(): number {
    // A leased delivery may wait in this copy's queue for about one attempt before it starts.
    return 2 * this.options.attemptTimeoutMs + (this.options.leaseMarginMs ?? 5000);
  }

  /** Leased rows this copy may still take: the attempts it may run plus as many queued behind them. */
  private free(): number {
    return 2 * this.options.maxConcurrency - this.inFlight - this.queuedTotal - this.reservedTotal;
  }

  /** Per domain, at most twice what it may run at once is held (running + queued + reserved). */
  private roomOf(domain: string): number {
    const held = (this.perDomain.get(domain) ?? 0) + (this.queues.get(domain)?.length ?? 0) + (this.reserved.get(domain) ?? 0);
    const limits = this.limits.get(domain);
    // A rate cap runs few at once: hold about a second's worth, so rows do not outwait their leases here.
    const paced = limits?.maxPerSecond == null ? Infinity : Math.max(1, limits.maxPerSecond);
    return Math.max(0, 2 * Math.min(this.capOf(domain), paced) - held);
  }

  /** Attempts of the domain this copy runs at once: its maxInFlight, or its adaptive allowance (both within domainConcurrency). */
  private capOf(domain: string): number {
    const limits = this.limits.get(domain);
    const cap = isCapped(limits) ? limits.maxInFlight ?? Infinity : this.allowances.get(domain) ?? Infinity;
    return Math.min(this.options.domainConcurrency, cap);
  }

  private reserve(deliveries: NewDelivery[], sign: 1 | -1): void {
    for (const { domain } of deliveries) {
      const n = (this.reserved.get(domain) ?? 0) + sign;
      if (n > 0) this.reserved.set(domain, n);
      else this.reserved.delete(domain);
    }
    this.reservedTotal += sign * deliveries.length;
  }

  /**
   * Look again shortly when more rows are due: attempts finishing one by one each free a slot, and
   * one claim a few ms later fills all of them at once instead of one query per finished attempt.
   */
  private wakeSoon(): void {
    if (this.wakeTimer || !this.backlog) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.loop.wake();
    }, this.options.coalesceMs ?? 5);
  }

  /**
   * Leases due deliveries into per-domain queues, so a slot that frees starts the next attempt at
   * once while the next claim is still on its way.
   */
  private async claimTurn(): Promise<TurnOutcome> {
    const free = this.free();
    if (free <= 0) return 'caught-up';
    const limit = Math.min(free, this.options.claimBatch ?? 200);
    const room = new Map<string, number>();
    for (const domain of new Set([...this.perDomain.keys(), ...this.queues.keys(), ...this.reserved.keys()])) {
      room.set(domain, this.roomOf(domain));
    }
    const claimedAt = Date.now();
    const claimed = await this.deliveries.claimDue(this.options.owner, this.leaseMs, limit, 2 * this.options.domainConcurrency, room, this.lastDomain);
    this.lastDomain = claimed.lastDomain ?? '';
    this.backlog = claimed.length > 0 || claimed.roomless === true;
    if (claimed.length === 0) return 'caught-up';
    // The subscriptions as they are now, right before the attempts (the cache forgets one as soon as its change is notified).
    this.enqueue(claimed, await this.subscriptions.getMany([...new Set(claimed.map((c) => c.domain))]), claimedAt);
    if (!this.running) {
      await this.releaseQueued();
      return 'caught-up';
    }
    this.pump();
    return claimed.length === limit ? 'more' : 'caught-up';
  }

  private enqueue(leased: ClaimedDelivery[], subscriptions: Map<string, StoredSubscription>, claimedAt: number): void {
    for (const delivery of leased) {
      const queue = this.queues.get(delivery.domain) ?? [];
      const subscription = subscriptions.get(delivery.domain);
      if (subscription) this.limits.set(delivery.domain, { maxPerSecond: subscription.maxPerSecond, maxInFlight: subscription.maxInFlight });
      queue.push({ delivery, subscription, claimedAt });
      this.queues.set(delivery.domain, queue);
      this.queuedTotal++;
    }
  }

  /** Starts queued attempts wherever a domain (and the copy) has a free slot. */
  private pump(): void {
    const stale: ClaimedDelivery[] = [];
    // Time an attempt needs from its start: the time limit plus the margin to record it.
    const needed = this.options.attemptTimeoutMs + Math.min(this.options.leaseMarginMs ?? 5000, 2000);
    for (const [domain, queue] of this.queues) {
      while (queue.length > 0 && this.inFlight < this.options.maxConcurrency && (this.perDomain.get(domain) ?? 0) < this.capOf(domain)) {
        const item = queue.shift()!;
        this.queuedTotal--;
        if (Date.now() + needed > item.claimedAt + this.leaseMs) {
          stale.push(item.delivery); // waited too long: hand it back rather than risk running it after the lease
          continue;
        }
        this.run(item);
      }
      if (queue.length === 0) {
        this.queues.delete(domain);
        if (!this.perDomain.has(domain)) this.limits.delete(domain);
      }
    }
    if (stale.length > 0) {
      this.deliveries.release(stale).catch((error) => this.logger.warn({ msg: 'releasing leases failed', error: (error as Error).message }));
    }
  }

  private run(item: Queued): void {
    const { delivery } = item;
    this.inFlight++;
    this.perDomain.set(delivery.domain, (this.perDomain.get(delivery.domain) ?? 0) + 1);
    const run = this.attempt(item)
      .catch((error) => this.logger.error({ msg: 'attempt crashed', deliveryId: delivery.id, error: (error as Error).message }))
      .finally(() => {
        this.attemptsInFlight.delete(run);
        this.inFlight--;
        const left = (this.perDomain.get(delivery.domain) ?? 1) - 1;
        if (left > 0) this.perDomain.set(delivery.domain, left);
        else {
          this.perDomain.delete(delivery.domain);
          if (!this.queues.has(delivery.domain)) this.limits.delete(delivery.domain);
        }
        if (this.running) this.pump();
        this.wakeSoon();
      });
    this.attemptsInFlight.add(run);
  }

  /** One attempt: for a capped domain once the gate gives it a place (the lease handed back if none comes in time). */
  private async attempt({ delivery, subscription, claimedAt }: Queued): Promise<void> {
    const limits = subscription && { maxPerSecond: subscription.maxPerSecond, maxInFlight: subscription.maxInFlight };
    let permit: FlowPermit | undefined;
    if (isCapped(limits)) {
      permit = await this.placeFor(delivery, limits, claimedAt);
      if (!permit) {
        await this.deliveries.release([delivery]);
        return;
      }
    }
    try {
      const answer = await this.runner.run(delivery, subscription);
      if (!isCapped(limits)) this.adapt(delivery.domain, answer);
      // The domain's next event becomes its head once this outcome is stored: claim it then.
      if (subscription?.ordering === 'fifo') void answer.recorded.then(() => this.running && this.wake());
    } finally {
      permit?.release();
    }
  }

  /** Waits for the gate's place while the lease still covers the attempt after it; undefined when it would not. */
  private async placeFor(delivery: ClaimedDelivery, limits: FlowLimits, claimedAt: number): Promise<FlowPermit | undefined> {
    const needed = this.options.attemptTimeoutMs + Math.min(this.options.leaseMarginMs ?? 5000, 2000);
    for (;;) {
      if (!this.running) return undefined;
      const place = await this.gate.tryAcquire(delivery.domain, limits);
      if (typeof place !== 'number') return place;
      if (Date.now() + place + needed > claimedAt + this.leaseMs) return undefined;
      await new Promise((resolve) => setTimeout(resolve, place));
    }
  }

  private adapt(domain: string, answer: AttemptAnswer): void {
    const full = this.options.domainConcurrency;
    const next = nextAllowance(this.allowances.get(domain) ?? full, full, answer);
    if (next >= full) this.allowances.delete(domain);
    else this.allowances.set(domain, next);
  }

  /** Hands the queued (not started) leases back, so another copy runs them now. */
  private async releaseQueued(): Promise<void> {
    const items = [...this.queues.values()].flat().map((q) => q.delivery);
    this.queues.clear();
    this.queuedTotal = 0;
    if (items.length > 0) await this.deliveries.release(items).catch(() => undefined);
  }
}
