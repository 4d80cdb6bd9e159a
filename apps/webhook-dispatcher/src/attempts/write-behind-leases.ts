import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ClaimedDelivery, NewDelivery } from '../delivery-log/delivery';
import type { NewDeliveries } from '../delivery-log/new-deliveries.store';

export interface WriteBehindLeasesOptions {
  /** How long leases wait for others before they are written together. */
  lingerMs: number;
  /** Between two tries of a write PostgreSQL refused. Default 500 ms. */
  retryMs?: number;
  /** How many recently leased events are remembered, so a copy of one read again is not attempted twice. Default 10,000. */
  remember?: number;
}

interface Gathering {
  rows: ClaimedDelivery[];
  owner: string;
  leaseMs: number;
  written: Promise<Set<string>>;
  settle: (outcome: { written: Set<string> } | { error: unknown }) => void;
}

/**
 * Leases made in memory for first attempts that start at once, written to PostgreSQL behind them:
 * one statement for all the leases made within `lingerMs`, instead of a round trip before each
 * attempt. A write PostgreSQL refuses is tried again until it lands (the attempts are under way);
 * the consumer commits an event's offset only once its lease is written, so a crash before that
 * reads the event again. Records of these attempts wait for their leases ({@link flush}).
 */
export class WriteBehindLeases {
  private readonly logger = new Logger('WriteBehindLeases');
  private gathering: Gathering | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Events leased lately (domain and event id), oldest first. */
  private readonly recent = new Set<string>();
  /** Once set (shutting down), a write that still fails after it is given up. */
  private giveUpAfter: number | undefined;

  constructor(
    private readonly store: Pick<NewDeliveries, 'writeLeased'>,
    private readonly options: WriteBehindLeasesOptions,
  ) {}

  /**
   * Leases the deliveries of events not leased lately to `owner` for `leaseMs`, at once. `written`
   * resolves with how many of them were written as this copy's once their write has landed.
   */
  lease(deliveries: NewDelivery[], owner: string, leaseMs: number): { leased: ClaimedDelivery[]; written: Promise<number> } {
    const leased: ClaimedDelivery[] = [];
    for (const d of deliveries) {
      const eventId = d.eventId.toLowerCase();
      if (!this.remember(`${d.domain}\u0000${eventId}`)) continue;
      leased.push({
        id: randomUUID(), domain: d.domain, eventId, eventName: d.eventName, body: d.body, ...(d.traceparent ? { traceparent: d.traceparent } : {}),
        attempts: 0, roundStart: 0, leaseToken: randomUUID(), position: d.position,
      });
    }
    // An event leased lately may still be on its way to PostgreSQL: it is stored once that write lands.
    const earlier = leased.length < deliveries.length ? Promise.all([this.writes, this.gathering?.written]) : undefined;
    let written: Promise<number>;
    if (leased.length === 0) written = Promise.resolve(earlier).then(() => 0);
    else {
      const batch = this.batchFor(owner, leaseMs);
      batch.rows.push(...leased);
      this.timer ??= setTimeout(() => void this.flush(), this.options.lingerMs);
      written = Promise.all([batch.written, earlier]).then(([ids]) => leased.filter((l) => ids.has(l.id)).length);
    }
    written.catch(() => undefined); // a caller that stops waiting leaves no unhandled rejection behind
    return { leased, written };
  }

  /** Resolves once every lease made before the call is written (or, shutting down, given up). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.gathering;
    this.gathering = undefined;
    if (batch) this.writes = this.writes.then(() => this.write(batch));
    return this.writes;
  }

  /** Writes what is leased; from `deadline` on, a write PostgreSQL refuses is given up. */
  async drain(deadline: number): Promise<void> {
    this.giveUpAfter = deadline;
    await this.flush();
  }

  private batchFor(owner: string, leaseMs: number): Gathering {
    if (this.gathering && (this.gathering.owner !== owner || this.gathering.leaseMs !== leaseMs)) void this.flush();
    if (!this.gathering) {
      let settle!: Gathering['settle'];
      const written = new Promise<Set<string>>((resolve, reject) => {
        settle = (outcome) => ('written' in outcome ? resolve(outcome.written) : reject(outcome.error));
      });
      written.catch(() => undefined);
      this.gathering = { rows: [], owner, leaseMs, written, settle };
    }
    return this.gathering;
  }

  /** False when the event was leased lately; remembers it otherwise (at most `remember` events). */
  private remember(key: string): boolean {
    if (this.recent.has(key)) return false;
    this.recent.add(key);
    if (this.recent.size > (this.options.remember ?? 10_000)) this.recent.delete(this.recent.values().next().value!);
    return true;
  }

  private async write(batch: Gathering): Promise<void> {
    for (;;) {
      try {
        const written = await this.store.writeLeased(batch.rows, batch.owner, batch.leaseMs);
        const taken = batch.rows.length - written.size;
        // Read again after another copy stored it: that copy's row stands, and this attempt was one more (receivers dedupe).
        if (taken > 0) this.logger.warn({ msg: 'leases not written: another row of their event was leased or attempted first', count: taken });
        batch.settle({ written });
        return;
      } catch (error) {
        if (this.giveUpAfter !== undefined && Date.now() > this.giveUpAfter) {
          this.logger.error({ msg: 'leases lost at shutdown; their events are read again from the last committed offset', count: batch.rows.length });
          batch.settle({ error });
          return;
        }
        this.logger.warn({ msg: 'writing leases failed; retrying', error: (error as Error).message });
        await new Promise((r) => setTimeout(r, this.options.retryMs ?? 500));
      }
    }
  }
}
