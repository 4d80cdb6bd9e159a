import { Logger } from '@nestjs/common';
import { PollingLoop, type TurnOutcome } from '@tailsync/service-kit';
import type { SubscriptionReader } from '../subscriptions/subscription-cache';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { AttemptRecorder } from '../attempts/attempt.recorder';
import type { AttemptRunner } from '../attempts/attempt.runner';
import type { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';
import type { DeliveryLeases } from './delivery-leases.store';
import { DomainQueues, type Queued } from './domain-queues';
import { isCapped, type FlowGate, type FlowLimits, type FlowPermit } from './flow-gate';
import type { WriteBehindLeases } from '../attempts/write-behind-leases';
import type { FreshStorage, LeasedBehind } from './fresh-storage';

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
 * Fresh deliveries come from the consumer through DeliveryAdmission: inserted already leased to this copy
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
   * Admits fresh deliveries from the consumer: those this copy has room for now are leased to it
   * by `storage` and queued once stored (their room held meanwhile); the rest are stored for the
   * claims, which are woken. Resolves once both are stored (leased ones are queued even if the
   * rest failed: the batch is consumed again); returns how many deliveries were new.
   */
  async admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>, storage: FreshStorage<Promise<ClaimedDelivery[]>>): Promise<number> {
    const { take, rest } = this.roomFor(fresh, subscriptions);
    const claimedAt = Date.now();
    const [leased, queued] = await this.reserving(take, Promise.allSettled([storage.lease(take, { owner: this.options.owner, leaseMs: this.leaseMs }), this.storeForClaims(storage, rest)]));
    if (leased.status === 'fulfilled' && leased.value.length > 0) await this.accept(leased.value, subscriptions, claimedAt);
    if (leased.status === 'rejected') throw leased.reason;
    if (queued.status === 'rejected') throw queued.reason;
    return leased.value.length + queued.value;
  }

  /**
   * As {@link admit}, but `storage` leases the deliveries this copy has room for at once (their
   * lease written behind them), so their attempts start before the first `await`. Resolves once
   * the rest are stored, and `stored` once the leases are written too, with how many were new.
   */
  async admitAttemptingFirst(
    fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>, storage: FreshStorage<LeasedBehind>,
  ): Promise<{ stored: Promise<number> }> {
    const { take, rest } = this.roomFor(fresh, subscriptions);
    const { leased, written } = storage.lease(take, { owner: this.options.owner, leaseMs: this.leaseMs });
    if (leased.length > 0) void this.accept(leased, subscriptions, Date.now());
    const queued = await this.storeForClaims(storage, rest);
    const stored = written.then((n) => n + queued);
    stored.catch(() => undefined); // a caller that stops waiting leaves no unhandled rejection behind
    return { stored };
  }

  /** Looks for due deliveries in `ms` (deliveries held back until then), if still running. */
  wakeIn(ms: number): void {
    setTimeout(() => this.running && this.wake(), ms).unref();
  }

  /**
   * Which fresh deliveries this copy has room for now, per domain and in all (none once stopped),
   * and the rest. A fifo domain's are all left to the claims, which take them in the topic's order.
   */
  private roomFor(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): { take: NewDelivery[]; rest: NewDelivery[] } {
    return this.queues.split(fresh, subscriptions, this.running ? this.queues.free() : 0);
  }

  /** Holds room for deliveries whose leased insert is on its way, until `done` settles. */
  private async reserving<T>(deliveries: NewDelivery[], done: Promise<T>): Promise<T> {
    this.queues.reserve(deliveries, 1);
    try {
      return await done;
    } finally {
      this.queues.reserve(deliveries, -1);
    }
  }

  /** Stores deliveries due now for the claims, and has the loop look for them (it may have room by then). */
  private async storeForClaims(storage: FreshStorage<unknown>, deliveries: NewDelivery[]): Promise<number> {
    const stored = await storage.storeForClaims(deliveries);
    if (stored > 0) this.wake();
    return stored;
  }

  /** Queues deliveries leased to this copy (`claimedAt`) for their attempts now; hands them back once stopped. */
  private async accept(leased: ClaimedDelivery[], subscriptions: Map<string, StoredSubscription>, claimedAt: number): Promise<void> {
    this.queues.enqueue(leased, subscriptions, claimedAt);
    if (this.running) this.pump();
    else await this.releaseQueued();
  }

  /** Time an attempt needs from its start: the time limit plus the margin to record it. */
  private get attemptSpanMs(): number {
    return this.options.attemptTimeoutMs + Math.min(this.options.leaseMarginMs ?? 5000, 2000);
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
    await this.accept(claimed, await this.subscriptions.getMany([...new Set(claimed.map((c) => c.domain))]), claimedAt);
    return this.running && claimed.length === limit ? 'more' : 'caught-up';
  }

  /** Starts queued attempts wherever a domain (and the copy) has a free slot. */
  private pump(): void {
    const stale: ClaimedDelivery[] = [];
    const needed = this.attemptSpanMs;
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
  private async attempt({ delivery, subscription: claimedWith, claimedAt }: Queued): Promise<void> {
    const limits = claimedWith && { maxPerSecond: claimedWith.maxPerSecond, maxInFlight: claimedWith.maxInFlight };
    let permit: FlowPermit | undefined;
    if (isCapped(limits)) {
      permit = await this.placeFor(delivery, limits, claimedAt);
      if (!permit) {
        await this.leases.release([delivery]);
        return;
      }
    }
    try {
      const subscription = await this.signingNow(delivery.domain, claimedWith);
      const answer = await this.runner.run(delivery, subscription);
      if (!isCapped(limits)) this.queues.adapt(delivery.domain, answer);
      // The domain's next event becomes its head once this outcome is stored: claim it then.
      if (subscription?.ordering === 'fifo') void answer.recorded.then(() => this.running && this.wake());
    } finally {
      permit?.release();
    }
  }

  /**
   * The subscription an attempt signs with. A delivery may wait in this copy's queue (its domain's
   * slots, the flow gate) for most of its lease after its subscription was read: an Ed25519 one is
   * read again now, the cache answering once caught up with every change committed before, so a
   * key revoked meanwhile signs nothing that starts after the revocation's answer, on any copy.
   * A replaced HMAC secret stays valid for its grace period, so those are not read again.
   */
  private async signingNow(domain: string, claimedWith: StoredSubscription | undefined): Promise<StoredSubscription | undefined> {
    if (claimedWith?.signatureScheme !== 'ed25519') return claimedWith;
    return (await this.subscriptions.getMany([domain])).get(domain);
  }

  /** Waits for the gate's place while the lease still covers the attempt after it; undefined when it would not. */
  private async placeFor(delivery: ClaimedDelivery, limits: FlowLimits, claimedAt: number): Promise<FlowPermit | undefined> {
    const needed = this.attemptSpanMs;
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
