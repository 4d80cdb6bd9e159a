import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SecretBox, signCallback } from '@tailsync/webhook-signing';
import { signingSecrets } from '../subscriptions/subscription-secrets';
import type { SubscriptionState } from '../subscriptions/subscription-state';
import type { SubscriptionStore, StoredSubscription } from '../subscriptions/subscription.store';
import type { AttemptSender } from './attempt.sender';
import type { DeliveryMetrics } from './delivery.metrics';
import type { AttemptRecord, ClaimedDelivery, DeliveryStore } from './delivery.store';
import { delayHonouringRetryAfter, parseRetryAfter, RETRY_AFTER_STATUSES } from './domain/retry-after';
import { classifyAttempt, GONE_STATUS, nextAttemptDelay } from './domain/retry-policy';

export interface SchedulerOptions {
  /** Names this copy as the owner of its leases. */
  owner: string;
  retryDelaysMs: readonly number[];
  /** The longest a receiver's Retry-After may push the next attempt. */
  retryAfterMaxMs: number;
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
 * Runs due delivery attempts. It leases due pending rows from PostgreSQL (so copies share the work
 * and never run one attempt twice), runs the attempts concurrently with a cap per domain (a hanging
 * receiver ties up at most `domainConcurrency` slots; other domains keep theirs), and records each
 * attempt with the delivery's next state in one statement guarded by the lease.
 *
 * It wakes at once when the consumer has inserted deliveries ({@link wake}) or an attempt finished,
 * and polls every `pollIntervalMs` otherwise (retries come due, other copies insert).
 */
export class DeliveryScheduler {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly jwt = new JwtService();
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private inFlight = 0;
  private readonly perDomain = new Map<string, number>();
  private readonly queues = new Map<string, { delivery: ClaimedDelivery; subscription: StoredSubscription | undefined; claimedAt: number }[]>();
  private queuedTotal = 0;
  /** Where the next claim's round-robin over domains starts. */
  private lastDomain = '';
  private readonly attemptsInFlight = new Set<Promise<void>>();
  private pendingRecords: AttemptRecord[] = [];
  private flushing: Promise<void> | null = null;
  private depthTimer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private stopDeadline: number | undefined;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly subscriptions: SubscriptionStore,
    private readonly box: SecretBox,
    private readonly sender: AttemptSender,
    private readonly metrics: DeliveryMetrics,
    private readonly state: SubscriptionState,
    private readonly options: SchedulerOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
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
    this.stopDeadline = Date.now() + this.options.attemptTimeoutMs + 10_000;
    clearInterval(this.depthTimer);
    clearTimeout(this.wakeTimer);
    this.wake();
    await this.loopDone;
    await this.releaseQueued();
    await Promise.allSettled([...this.attemptsInFlight]);
    await this.flushRecords();
  }

  /** Look for due deliveries now (the consumer inserted some, or one was redelivered). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Look again shortly: attempts finishing one by one each free a slot, and one claim a few ms later
   * fills all of them at once instead of one query per finished attempt.
   */
  private wakeSoon(): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wake();
    }, this.options.coalesceMs ?? 5);
  }

  get activeAttempts(): number {
    return this.inFlight;
  }

  private get leaseMs(): number {
    // A claimed delivery may wait in this copy's queue for about one attempt before it starts.
    return 2 * this.options.attemptTimeoutMs + (this.options.leaseMarginMs ?? 5000);
  }

  private async loop(): Promise<void> {
    const claimBatch = this.options.claimBatch ?? 200;
    // Leased rows this copy holds at most: the attempts it may run plus as many queued behind them.
    const maxHeld = 2 * this.options.maxConcurrency;
    while (this.running) {
      let full = false;
      try {
        this.woken = false;
        const free = maxHeld - this.inFlight - this.queuedTotal;
        if (free > 0) {
          const limit = Math.min(free, claimBatch);
          const claimed = await this.claim(limit);
          full = claimed === limit;
        }
      } catch (error) {
        this.logger.warn({ msg: 'claiming due deliveries failed; retrying', error: (error as Error).message });
        await this.sleep(Math.max(this.options.pollIntervalMs, 500));
        continue;
      }
      if (!full) await this.sleep(this.options.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || !this.running) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  /**
   * Leases due deliveries into per-domain queues: per domain at most twice its concurrency is held
   * (running + queued), so a slot that frees starts the next attempt at once while the next claim
   * is still on its way.
   */
  private async claim(limit: number): Promise<number> {
    const cap = this.options.domainConcurrency;
    const room = new Map<string, number>();
    for (const domain of new Set([...this.perDomain.keys(), ...this.queues.keys()])) {
      room.set(domain, Math.max(0, 2 * cap - (this.perDomain.get(domain) ?? 0) - (this.queues.get(domain)?.length ?? 0)));
    }
    const claimedAt = Date.now();
    const claimed = await this.deliveries.claimDue(this.options.owner, this.leaseMs, limit, 2 * cap, room, this.lastDomain);
    this.lastDomain = claimed.lastDomain ?? '';
    if (claimed.length === 0) return 0;
    // The subscription is read here, right before the attempts (a change applies to every event consumed after it).
    const subs = await this.subscriptions.getMany([...new Set(claimed.map((c) => c.domain))]);
    for (const delivery of claimed) {
      const queue = this.queues.get(delivery.domain) ?? [];
      queue.push({ delivery, subscription: subs.get(delivery.domain), claimedAt });
      this.queues.set(delivery.domain, queue);
      this.queuedTotal++;
    }
    if (!this.running) {
      await this.releaseQueued();
      return claimed.length;
    }
    this.pump();
    return claimed.length;
  }

  /** Starts queued attempts wherever a domain (and the copy) has a free slot. */
  private pump(): void {
    const stale: ClaimedDelivery[] = [];
    // Time an attempt needs from its start: the time limit plus the margin to record it.
    const needed = this.options.attemptTimeoutMs + Math.min(this.options.leaseMarginMs ?? 5000, 2000);
    for (const [domain, queue] of this.queues) {
      while (queue.length > 0 && this.inFlight < this.options.maxConcurrency && (this.perDomain.get(domain) ?? 0) < this.options.domainConcurrency) {
        const item = queue.shift()!;
        this.queuedTotal--;
        if (Date.now() + needed > item.claimedAt + this.leaseMs) {
          stale.push(item.delivery); // waited too long: hand it back rather than risk running it after the lease
          continue;
        }
        this.run(item.delivery, item.subscription);
      }
      if (queue.length === 0) this.queues.delete(domain);
    }
    if (stale.length > 0) {
      this.deliveries.release(stale).catch((error) => this.logger.warn({ msg: 'releasing leases failed', error: (error as Error).message }));
    }
  }

  private run(delivery: ClaimedDelivery, subscription: StoredSubscription | undefined): void {
    this.inFlight++;
    this.perDomain.set(delivery.domain, (this.perDomain.get(delivery.domain) ?? 0) + 1);
    const run = this.attempt(delivery, subscription)
      .catch((error) => this.logger.error({ msg: 'attempt crashed', deliveryId: delivery.id, error: (error as Error).message }))
      .finally(() => {
        this.attemptsInFlight.delete(run);
        this.inFlight--;
        const left = (this.perDomain.get(delivery.domain) ?? 1) - 1;
        if (left <= 0) this.perDomain.delete(delivery.domain);
        else this.perDomain.set(delivery.domain, left);
        if (this.running) this.pump();
        this.wakeSoon();
      });
    this.attemptsInFlight.add(run);
  }

  /** Hands the queued (not started) leases back, so another copy runs them now. */
  private async releaseQueued(): Promise<void> {
    const items = [...this.queues.values()].flat().map((q) => q.delivery);
    this.queues.clear();
    this.queuedTotal = 0;
    if (items.length > 0) await this.deliveries.release(items).catch(() => undefined);
  }

  /** One attempt of a leased delivery, against the subscription as it is now. */
  private async attempt(delivery: ClaimedDelivery, subscription: StoredSubscription | undefined): Promise<void> {
    const attempt = delivery.attempts + 1;
    const at = new Date();
    const end = (error: string) =>
      this.enqueueRecord(
        { id: delivery.id, leaseToken: delivery.leaseToken, attempt, at, statusCode: null, durationMs: 0, error, retryAfterMs: null, next: { status: 'failed' } },
        'failed',
      );

    if (!subscription) return end('no subscription: it was deleted before this attempt; nothing was sent');
    if (subscription.status === 'disabled') return end(`the subscription is disabled (${subscription.disabledReason}); nothing was sent`);
    if (!subscription.eventNames.includes(delivery.eventName)) {
      return end(`the subscription no longer lists ${delivery.eventName}; nothing was sent`);
    }
    let secrets: [string, ...string[]];
    try {
      secrets = signingSecrets(subscription, this.box);
    } catch {
      return end('the stored shared secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?); nothing was sent');
    }
    const headers = signCallback(
      { body: delivery.body, secrets, domain: delivery.domain, eventName: delivery.eventName, webhookId: delivery.eventId, attempt },
      this.jwt,
    );
    const result = await this.sender.send({
      url: subscription.url,
      body: delivery.body,
      headers,
      timeoutMs: this.options.attemptTimeoutMs,
    });
    const verdict = classifyAttempt({ statusCode: result.statusCode, error: result.errorCode });
    this.metrics.attemptDuration.observe({ result: verdict }, result.durationMs / 1000);
    const asked = result.statusCode !== undefined && RETRY_AFTER_STATUSES.has(result.statusCode) ? parseRetryAfter(result.retryAfter, Date.now()) : null;
    const retryAfterMs = asked === null ? null : Math.min(asked, this.options.retryAfterMaxMs);
    let next: AttemptRecord['next'];
    let outcome: string;
    if (verdict === 'delivered') {
      next = { status: 'delivered' };
      outcome = 'delivered';
    } else if (verdict === 'give-up') {
      next = { status: 'failed' };
      outcome = 'failed';
    } else {
      const scheduled = nextAttemptDelay(attempt - delivery.roundStart, this.options.retryDelaysMs);
      const delay = scheduled === null ? null : delayHonouringRetryAfter(scheduled, retryAfterMs, this.options.retryAfterMaxMs);
      next = delay === null ? { status: 'failed' } : { status: 'pending', at: new Date(Date.now() + delay) };
      outcome = delay === null ? 'failed' : 'retry-scheduled';
    }
    const error = result.error ?? (verdict === 'delivered' ? null : `HTTP ${result.statusCode}`);
    this.enqueueRecord(
      { id: delivery.id, leaseToken: delivery.leaseToken, attempt, at, statusCode: result.statusCode ?? null, durationMs: result.durationMs, error, retryAfterMs, next },
      outcome,
    );
    if (result.statusCode === GONE_STATUS) {
      this.state.disable(delivery.domain, 'gone').catch((e) => this.logger.warn({ msg: 'disabling a gone subscription failed', error: (e as Error).message }));
    }
  }

  private enqueueRecord(record: AttemptRecord, outcome: string): void {
    this.pendingRecords.push(record);
    this.metrics.deliveries.inc({ outcome });
    if (!this.flushing) {
      this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flushLoop());
    }
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pendingRecords.length > 0) {
        const batch = this.pendingRecords;
        this.pendingRecords = [];
        try {
          const { recorded, disabled } = await this.deliveries.recordAttempts(batch);
          for (const { domain, url } of disabled) {
            this.state.announceDisabled(domain, url, 'failing').catch((e) => this.logger.warn({ msg: 'announcing a disabled subscription failed', error: (e as Error).message }));
          }
          const lost = batch.length - recorded.size;
          if (lost > 0) this.logger.warn({ msg: 'attempt results not recorded: their lease had passed to another copy', count: lost });
        } catch (error) {
          if (!this.running && this.stopDeadline !== undefined && Date.now() > this.stopDeadline) {
            // Shutting down with the database gone: the leases run out and another copy repeats these attempts.
            this.logger.error({ msg: 'attempt results lost at shutdown; their attempts will be repeated', count: batch.length });
            continue;
          }
          // Keep them and try again: until the lease runs out the delivery stays ours.
          this.logger.warn({ msg: 'recording attempts failed; retrying', error: (error as Error).message });
          this.pendingRecords = batch.concat(this.pendingRecords);
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  private async flushRecords(): Promise<void> {
    while (this.flushing || this.pendingRecords.length > 0) {
      if (this.flushing) await this.flushing;
      else this.flushing = this.flushLoop();
    }
  }
}
