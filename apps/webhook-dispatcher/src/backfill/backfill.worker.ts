import { Logger } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { PollingLoop } from '@tailsync/service-kit';
import { type TopicRereader, TopicUnreadable } from '../intake/topic-rereader';
import type { BackfillCheckpoint, ClaimedBackfill } from './backfill-job';
import type { BackfillJobs } from './backfill-jobs.store';

export interface BackfillWorkerOptions {
  /** This copy's name on the leases it holds. */
  owner: string;
  /** Jobs running at once across every copy (WEBHOOK_BACKFILL_CONCURRENCY). */
  concurrency: number;
  /** A job whose copy has not renewed its lease for this long is taken over by another copy. */
  leaseMs: number;
  /** The domain's events read and stored per page (the memory a job holds). */
  pageSize: number;
  /** Deliveries per second per domain (WEBHOOK_RECOVERY_PER_SECOND). */
  perSecond: number;
  /** How far ahead of their pace a job's deliveries may be stored (WEBHOOK_BACKFILL_AHEAD_SECONDS). */
  aheadMs: number;
  /** How often a copy looks for a job to claim. */
  pollMs: number;
  eventTypes: readonly WebhookEventType[];
  /** Told when a page stored deliveries (the scheduler is woken). */
  onStored: () => void;
}

/** How a job's read ended: all of it read, stopped (cancelled, taken over, the copy stopping), or paused ahead of its pace. */
type JobReadOutcome = 'read' | 'stopped' | 'ahead';

/**
 * Runs backfill jobs: claims one when fewer than `concurrency` run across every copy, reads each
 * input topic's stretch page by page, and stores each page with its checkpoint. Cancelling (or
 * another copy taking the job over) is seen at the next page; a copy that stops gives its jobs back.
 * A job whose deliveries run `aheadMs` ahead of their pace pauses until half of that is left.
 */
export class BackfillWorker {
  private readonly logger = new Logger('BackfillWorker');
  private readonly loop: PollingLoop;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly jobs: BackfillJobs,
    private readonly rereader: TopicRereader,
    private readonly options: BackfillWorkerOptions,
  ) {
    this.loop = new PollingLoop(() => this.turn(), {
      idleMs: options.pollMs,
      errorBackoffMs: options.pollMs,
      onError: (error) => this.logger.warn({ msg: 'no backfill claimed', error: (error as Error).message }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for a job now (one was just queued). */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming, stops each job at its next page, and gives them back for another copy to resume. */
  async stop(): Promise<void> {
    await this.loop.stop();
    for (const job of this.running.values()) job.abort.abort();
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  private async turn(): Promise<'caught-up' | 'more'> {
    if (this.running.size >= this.options.concurrency) return 'caught-up';
    const job = await this.jobs.claim(this.options.owner, this.options.leaseMs, this.options.concurrency);
    if (!job) return 'caught-up';
    const abort = new AbortController();
    const done = this.run(job, abort.signal).finally(() => {
      this.running.delete(job.id);
      this.loop.wake(); // a slot is free
    });
    this.running.set(job.id, { abort, done });
    return 'more';
  }

  private async run(job: ClaimedBackfill, signal: AbortSignal): Promise<void> {
    const { owner, leaseMs } = this.options;
    // The lease outlives a page that waits on the broker; a lost lease or a cancel stops the read.
    const renewal = setInterval(() => {
      this.jobs.renew(job.id, owner, leaseMs).then((outcome) => outcome === 'stop' && lost.abort(), () => undefined);
    }, Math.max(50, leaseMs / 3));
    const lost = new AbortController();
    const stopped = AbortSignal.any([signal, lost.signal]);
    try {
      const outcome = await this.readAll(job, stopped);
      if (outcome === 'read') await this.jobs.finish(job.id, owner, 'done');
      else if (outcome === 'ahead') await this.jobs.pause(job.id, owner, this.options.aheadMs / 2);
      else if (signal.aborted) await this.jobs.release(job.id, owner);
    } catch (error) {
      const reason = error instanceof TopicUnreadable ? error.message : 'The backfill failed.';
      this.logger.error({ msg: 'backfill failed', backfillId: job.id, domain: job.domain, error: (error as Error).message });
      await this.jobs.finish(job.id, owner, 'failed', reason).catch(() => undefined);
    } finally {
      clearInterval(renewal);
    }
  }

  private async readAll(job: ClaimedBackfill, signal: AbortSignal): Promise<JobReadOutcome> {
    const checkpoint: BackfillCheckpoint = { ...job.checkpoint };
    const { owner, leaseMs, perSecond, aheadMs } = this.options;
    const store = { id: job.id, owner, leaseMs, perSecond, aheadMs };
    let ahead = false;
    for (const type of this.options.eventTypes) {
      const { topic } = type.input;
      checkpoint[topic] ??= await this.rereader.stretch(type, job.domain, job.since);
      const outcome = await this.rereader.read(type, job.domain, checkpoint[topic], this.options.pageSize, signal, async (events, next) => {
        checkpoint[topic] = { ...checkpoint[topic], next };
        const page = await this.jobs.storePage(store, events, checkpoint);
        if (events.length > 0) this.options.onStored();
        ahead = page === 'ahead';
        return page === 'continue' ? 'continue' : 'stop';
      });
      if (outcome === 'stopped') return ahead ? 'ahead' : 'stopped';
    }
    return 'read';
  }
}
