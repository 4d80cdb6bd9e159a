import { Logger } from '@nestjs/common';
import type { SubscriptionState } from '../subscriptions/subscription-state';
import type { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { AttemptRecord, AttemptRecords } from './attempt-records.store';
import type { WriteBehindLeases } from './write-behind-leases';

export interface AttemptRecorderOptions {
  /**
   * How long a finished attempt waits for others before they are recorded together. One statement
   * (and one commit) then records several attempts; the callback has already been sent.
   */
  lingerMs: number;
}

/** A queued record, and who waits for it. */
interface Pending {
  record: AttemptRecord;
  done: () => void;
}

/**
 * Records finished attempts in batches, each with the state it leaves its delivery in (one
 * statement per batch, guarded by the leases). A batch that cannot be recorded is kept and tried
 * again while the leases hold; subscriptions the outcomes disabled are announced.
 */
export class AttemptRecorder {
  private readonly logger = new Logger('AttemptRecorder');
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  /** Ends the current linger early (a record someone waits for). */
  private endLinger: (() => void) | undefined;
  /** Once set (shutting down), a batch that still cannot be recorded after it is given up. */
  private giveUpAfter: number | undefined;

  constructor(
    private readonly records: AttemptRecords,
    private readonly state: SubscriptionState,
    private readonly metrics: DeliveryMetrics,
    private readonly options: AttemptRecorderOptions,
    /** Leases of first attempts still being written: a record waits for its delivery's row. */
    private readonly leaseWrites?: Pick<WriteBehindLeases, 'flush'>,
  ) {}

  /** Queues an attempt's record; `outcome` is counted at once. Resolves once it is recorded (or given up at shutdown). */
  record(record: AttemptRecord, outcome: string): Promise<void> {
    const recorded = new Promise<void>((done) => this.pending.push({ record, done }));
    this.metrics.deliveries.inc({ outcome });
    if (!this.flushing) {
      const linger = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, this.options.lingerMs));
        this.endLinger = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.flushing = linger.then(() => {
        this.endLinger = undefined;
        return this.flushLoop();
      });
    }
    return recorded;
  }

  /**
   * As {@link record}, without waiting for others to record with it: a fifo domain's next event
   * waits for this one's outcome to be stored.
   */
  recordPromptly(record: AttemptRecord, outcome: string): Promise<void> {
    const recorded = this.record(record, outcome);
    this.endLinger?.();
    return recorded;
  }

  /** Records everything queued; from `deadline` on, a batch the database refuses is given up. */
  async drain(deadline: number): Promise<void> {
    this.giveUpAfter = deadline;
    this.endLinger?.();
    while (this.flushing || this.pending.length > 0) {
      if (this.flushing) await this.flushing;
      else this.flushing = this.flushLoop();
    }
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.leaseWrites?.flush();
          const { recorded, disabled } = await this.records.recordAttempts(batch.map((p) => p.record));
          for (const { domain, url } of disabled) {
            this.state.announceDisabled(domain, url, 'failing').catch((e) => this.logger.warn({ msg: 'announcing a disabled subscription failed', error: (e as Error).message }));
          }
          const lost = batch.length - recorded.size;
          if (lost > 0) this.logger.warn({ msg: 'attempt results not recorded: their lease had passed to another copy', count: lost });
          for (const p of batch) p.done();
        } catch (error) {
          if (this.giveUpAfter !== undefined && Date.now() > this.giveUpAfter) {
            // Shutting down with the database gone: the leases run out and another copy repeats these attempts.
            this.logger.error({ msg: 'attempt results lost at shutdown; their attempts will be repeated', count: batch.length });
            for (const p of batch) p.done();
            continue;
          }
          // Keep them and try again: until the lease runs out the delivery stays ours.
          this.logger.warn({ msg: 'recording attempts failed; retrying', error: (error as Error).message });
          this.pending = batch.concat(this.pending);
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    } finally {
      this.flushing = null;
    }
  }
}
