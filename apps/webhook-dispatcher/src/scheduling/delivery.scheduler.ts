import { Logger } from '@nestjs/common';
import { PollingLoop, type TurnOutcome } from '@tailsync/service-kit';
import type { SubscriptionReader } from '../subscriptions/subscription-cache';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { AttemptRecorder } from '../attempts/attempt.recorder';
import type { AttemptRunner } from '../attempts/attempt.runner';
import type { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';
import type { NewDeliveries } from '../delivery-log/new-deliveries.store';
import type { DeliveryLeases } from './delivery-leases.store';
import { DomainQueues, type Queued } from './domain-queues';
import { isCapped, type FlowGate, type FlowLimits, type FlowPermit } from './flow-gate';
import type { WriteBehindLeases } from '../attempts/write-behind-leases';

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
  private readonly queues: DomainQueues;
  /** Where the next claim's round-robin over domains starts. */
  private lastDomain = '';
  /** Due rows may be waiting that this copy has not leased: claim again as slots free. */
  private backlog = false;
  private readonly attemptsInFlight = new Set<Promise<void>>();
  private depthTimer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly newDeliveries: NewDeliveries,
    private readonly leases: DeliveryLeases,
    private readonly subscriptions: SubscriptionReader,
    private readonly runner: AttemptRunner,
    private readonly recorder: AttemptRecorder,
    private readonly metrics: DeliveryMetrics,
    private readonly options: SchedulerOptions,
    private readonly leaseWrites: WriteBehindLeases,
    private readonly gate: FlowGate,
  ) {
    this.queues = new DomainQueues(options);
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
      this.leases.pendingCount().then((n) => this.metrics.queueDepth.set(n), () => undefined);
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
    return this.queues.inFlight;
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
    this.queues.reserve(take, 1);
    const claimedAt = Date.now();
    const [leased, queued] = await Promise.allSettled([
      this.newDeliveries.insertLeased(take, this.options.owner, this.leaseMs),
      this.storeForClaims(rest),
    ]).finally(() => this.queues.reserve(take, -1));
    if (leased.status === 'fulfilled' && leased.value.length > 0) {
      // Stored: these are ours to run even if the other insert failed (the batch is consumed again).
      this.queues.enqueue(leased.value, subscriptions, claimedAt);
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
      this.queues.enqueue(leased, subscriptions, Date.now());
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
    const stored = await this.newDeliveries.insertMany(deliveries, holdMs);
    if (stored > 0) setTimeout(() => this.running && this.wake(), holdMs).unref();
    return stored;
  }

  /** Inserts deliveries due now, and looks for them (this copy may have room by then). */
  private async storeForClaims(deliveries: NewDelivery[]): Promise<number> {
    const stored = await this.newDeliveries.insertMany(deliveries);
    if (stored > 0) this.wake();
    return stored;
  }

  /** Which deliveries this copy has room for now (none once stopped), and the rest. */
  private split(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): { take: NewDelivery[]; rest: NewDelivery[] } {
    return this.queues.split(fresh, subscriptions, this.running ? this.queues.free() : 0);
  }

  private get leaseMs(): number {
    // A leased delivery may wait in this copy's queue for about one attempt before it starts.
    return 2 * this.options.attemptTimeoutMs + (this.options.leaseMarginMs ?? 5000);
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
    const free = this.queues.free();
    if (free <= 0) return 'caught-up';
    const limit = Math.min(free, this.options.claimBatch ?? 200);
    const claimedAt = Date.now();
    const claimed = await this.leases.claimDue(this.options.owner, this.leaseMs, limit, 2 * this.options.domainConcurrency, this.queues.rooms(), this.lastDomain);
    this.lastDomain = claimed.lastDomain ?? '';
    this.backlog = claimed.length > 0 || claimed.roomless === true;
    if (claimed.length === 0) return 'caught-up';
    // The subscriptions as they are now, right before the attempts (the cache forgets one as soon as its change is notified).
    this.queues.enqueue(claimed, await this.subscriptions.getMany([...new Set(claimed.map((c) => c.domain))]), claimedAt);
    if (!this.running) {
      await this.releaseQueued();
      return 'caught-up';
    }
    this.pump();
    return claimed.length === limit ? 'more' : 'caught-up';
  }

  /** Starts queued attempts wherever a domain (and the copy) has a free slot. */
  private pump(): void {
    const stale: ClaimedDelivery[] = [];
    // Time an attempt needs from its start: the time limit plus the margin to record it.
    const needed = this.options.attemptTimeoutMs + Math.min(this.options.leaseMarginMs ?? 5000, 2000);
    for (const item of this.queues.startable()) {
      if (Date.now() + needed > item.claimedAt + this.leaseMs) stale.push(item.delivery); // waited too long: hand it back rather than risk running it after the lease
      else this.run(item);
    }
    if (stale.length > 0) {
      this.leases.release(stale).catch((error) => this.logger.warn({ msg: 'releasing leases failed', error: (error as Error).message }));
    }
  }

  private run(item: Queued): void {
    const { delivery } = item;
    this.queues.started(delivery.domain);
    const run = this.attempt(item)
      .catch((error) => this.logger.error({ msg: 'attempt crashed', deliveryId: delivery.id, error: (error as Error).message }))
      .finally(() => {
        this.attemptsInFlight.delete(run);
        this.queues.finished(delivery.domain);
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
        await this.leases.release([delivery]);
        return;
      }
    }
    try {
      const answer = await this.runner.run(delivery, subscription);
      if (!isCapped(limits)) this.queues.adapt(delivery.domain, answer);
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

  /** Hands the queued (not started) leases back, so another copy runs them now. */
  private async releaseQueued(): Promise<void> {
    const items = this.queues.takeAll();
    if (items.length > 0) await this.leases.release(items).catch(() => undefined);
  }
}
