import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ClientConfig } from 'pg';
import createSubscriber, { type Subscriber } from 'pg-listen';
import type { StoredSubscription, SubscriptionStore } from './subscription.store';

/** What the subscriptions table's triggers notify on commit, with the domain as payload (migration 20261124160000000). */
export const SUBSCRIPTION_CHANGED_CHANNEL = 'webhook_subscription_changed';

/** Where a copy sends itself a marker to learn that every notice committed before it has arrived. */
const CAUGHT_UP_CHANNEL = 'webhook_subscription_cache_caught_up';

/** A marker not back within this long: forget everything kept rather than wait (reads go to the table). */
const CAUGHT_UP_TIMEOUT_MS = 2_000;

/** Domains kept at most; past it the longest kept is dropped (events may name any number of unsubscribed domains). */
const MAX_KEPT = 50_000;

/** Reads the subscriptions that deliveries go to. */
export interface SubscriptionReader {
  getMany(domains: string[]): Promise<Map<string, StoredSubscription>>;
}

/**
 * The subscriptions this copy delivers to, kept in memory: at a steady rate, reading them for each
 * consumed event was a round trip per event. PostgreSQL notifies every change on commit (a
 * trigger) and the copy forgets that domain. A notice can arrive after the save's response, so
 * before answering from memory a read waits until the copy has caught up: it notifies itself a
 * marker on the same connection, and PostgreSQL delivers notices in commit order, so once the
 * marker is back every change committed before the read began has been forgotten (the contract:
 * a change applies to every event consumed after its response). Concurrent reads share one
 * marker. While the notice connection is down nothing is kept (a notice could be missed): every
 * read goes to the table until it is listening again.
 *
 * The health figures a recorded attempt moves (last success, the run of failures) send no notice:
 * a kept subscription shows them as they were when it was read. Delivering never reads them.
 */
export class SubscriptionCache implements SubscriptionReader {
  private readonly logger = new Logger('SubscriptionCache');
  /** Per domain, its subscription, or null when it has none. */
  private readonly kept = new Map<string, StoredSubscription | null>();
  /** Moves on every notice and every loss of the connection: a read that overlapped one is not kept. */
  private generation = 0;
  private listening = false;
  private readonly subscriber: Subscriber;
  /** Reads waiting to know they have caught up, and the marker round trip that will tell them. */
  private waitingToCatchUp: { resolve: () => void }[] = [];
  private catchingUp = false;
  private readonly markers = new Map<string, () => void>();

  /**
   * @param options.checkEveryMs how often the notice connection is checked with a query: one that
   *   died silently (no reset, e.g. a cut network) is found within this long and half again, the
   *   check's own time limit (a check on such a connection would otherwise wait for TCP to give up).
   */
  constructor(
    private readonly store: SubscriptionStore,
    connection: ClientConfig,
    options: { checkEveryMs?: number } = {},
  ) {
    const checkEveryMs = options.checkEveryMs ?? 10_000;
    this.subscriber = createSubscriber({ ...connection, query_timeout: Math.ceil(checkEveryMs / 2) }, {
      parse: (payload) => payload,
      serialize: (payload: string) => payload,
      // Reconnect for as long as it takes (0: no time limit), backing off to one try a second.
      retryTimeout: 0,
      retryInterval: (attempt) => Math.min(100 * 2 ** attempt, 1000),
      paranoidChecking: checkEveryMs,
    });
    this.subscriber.notifications.on(SUBSCRIPTION_CHANGED_CHANNEL, (domain: string) => this.forget(domain));
    this.subscriber.notifications.on(CAUGHT_UP_CHANNEL, (marker: string) => this.markers.get(marker)?.());
    this.subscriber.events.on('reconnect', () => this.stopKeeping());
    this.subscriber.events.on('connected', () => {
      // Emitted again after a reconnect once LISTEN is issued anew; the first time, start() listens.
      if (this.subscriber.getSubscribedChannels().length > 0) this.listening = true;
    });
    this.subscriber.events.on('error', (error) => {
      this.stopKeeping();
      this.logger.warn({ msg: 'subscription change notices failed; reading subscriptions from the table', error: error.message });
    });
  }

  async start(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.listenTo(SUBSCRIPTION_CHANGED_CHANNEL);
    await this.subscriber.listenTo(CAUGHT_UP_CHANNEL);
    this.listening = true;
  }

  async stop(): Promise<void> {
    this.stopKeeping();
    await this.subscriber.close().catch(() => undefined);
  }

  async getMany(domains: string[]): Promise<Map<string, StoredSubscription>> {
    if (domains.some((domain) => this.kept.has(domain))) await this.caughtUp();
    const found = new Map<string, StoredSubscription>();
    const missing: string[] = [];
    for (const domain of domains) {
      const kept = this.kept.get(domain);
      if (kept === undefined) missing.push(domain);
      else if (kept !== null) found.set(domain, kept);
    }
    if (missing.length === 0) return found;
    const generation = this.generation;
    const read = await this.store.getMany(missing);
    const keep = this.listening && generation === this.generation;
    for (const domain of missing) {
      const subscription = read.get(domain);
      if (subscription) found.set(domain, subscription);
      if (keep) this.kept.set(domain, subscription ?? null);
    }
    for (const domain of this.kept.keys()) {
      if (this.kept.size <= MAX_KEPT) break;
      this.kept.delete(domain);
    }
    return found;
  }

  /** Resolves once every notice committed before the call has arrived (or nothing is kept any more). */
  private caughtUp(): Promise<void> {
    return new Promise((resolve) => {
      this.waitingToCatchUp.push({ resolve });
      if (!this.catchingUp) void this.sendMarkers();
    });
  }

  /** One marker at a time, for every read that began before it was sent. */
  private async sendMarkers(): Promise<void> {
    this.catchingUp = true;
    while (this.waitingToCatchUp.length > 0) {
      const waiting = this.waitingToCatchUp.splice(0);
      if (this.listening && !(await this.markerReturned())) {
        this.logger.warn({ msg: `no notice came back within ${CAUGHT_UP_TIMEOUT_MS} ms; reading subscriptions from the table` });
        this.generation++;
        this.kept.clear();
      }
      for (const read of waiting) read.resolve();
    }
    this.catchingUp = false;
  }

  private async markerReturned(): Promise<boolean> {
    const marker = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const back = new Promise<boolean>((resolve) => {
      this.markers.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), CAUGHT_UP_TIMEOUT_MS);
    });
    try {
      await this.subscriber.notify(CAUGHT_UP_CHANNEL, marker);
      return await back;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.markers.delete(marker);
    }
  }

  private forget(domain: string): void {
    this.generation++;
    this.kept.delete(domain);
  }

  private stopKeeping(): void {
    this.listening = false;
    this.generation++;
    this.kept.clear();
  }
}
