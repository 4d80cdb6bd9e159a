import { Logger } from '@nestjs/common';
import { advisoryLockKey, LeaderLock, PollingLoop } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { DeliveryLogPartitions, type LogWeek } from './delivery-log-partitions';
import type { DeliveryMetrics } from './delivery.metrics';

const DAY_MS = 86_400_000;

export interface DeliveryLogRetentionOptions {
  /** WEBHOOK_LOG_RETENTION_DAYS: a week is dropped once it ended at least this long ago. */
  retentionDays: number;
  /** Weeks kept created ahead of this one (inserts never wait for a partition). Default 4. */
  weeksAhead?: number;
  /** Pause between turns. Default 1 min. */
  intervalMs?: number;
  /** The longest a drop waits to lock the log (the hot path waits behind it meanwhile). Default 2 s. */
  lockTimeoutMs?: number;
}

export interface RetentionTurn {
  dropped: string[];
  /** Weeks past retention that hold a pending delivery: kept whole until it ends. */
  held: string[];
  keysDeleted: number;
}

/**
 * Keeps the delivery log within WEBHOOK_LOG_RETENTION_DAYS by dropping whole weeks (deliveries and
 * their attempts), on one copy at a time (a PostgreSQL advisory lock): a week goes once it ended
 * at least the retention ago and holds no pending delivery, then the dedupe keys of what it held.
 * The config keeps the retention at least the recovery window (31 days), so a recovery finds all
 * it may ask for. Every copy creates the weeks ahead at start and exports the log's gauges.
 */
export class DeliveryLogRetention {
  private readonly logger = new Logger('DeliveryLogRetention');
  private readonly partitions: DeliveryLogPartitions;
  private readonly lock: LeaderLock;
  private readonly loop: PollingLoop;
  private readonly weeksAhead: number;

  constructor(pool: Pool, private readonly metrics: DeliveryMetrics, private readonly options: DeliveryLogRetentionOptions) {
    this.partitions = new DeliveryLogPartitions(pool);
    this.weeksAhead = options.weeksAhead ?? 4;
    // Scoped by the pool's session options (its search_path), so copies sharing one log share the lock.
    const scope = `tailsync.webhook-delivery-log-retention:${pool.options.options ?? ''}`;
    this.lock = new LeaderLock(pool, advisoryLockKey(scope));
    const intervalMs = options.intervalMs ?? 60_000;
    this.loop = new PollingLoop(() => this.turn(), {
      idleMs: intervalMs,
      errorBackoffMs: intervalMs,
      onError: (error) => this.logger.warn({ msg: 'delivery log not pruned yet', error: (error as Error).message }),
    });
    metrics.logRetention.set(options.retentionDays * DAY_MS / 1000);
  }

  async start(): Promise<void> {
    await this.partitions.addWeeks(new Date(), this.weeksAhead);
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.lock.release();
  }

  /**
   * One leader's pass as of `now`: adds the weeks ahead, drops the weeks past retention that hold
   * no pending delivery (oldest first), then deletes the dedupe keys older than the oldest week kept.
   */
  async prune(now = new Date()): Promise<RetentionTurn> {
    await this.partitions.addWeeks(now, this.weeksAhead);
    const cutoff = now.getTime() - this.options.retentionDays * DAY_MS;
    const turn: RetentionTurn = { dropped: [], held: [], keysDeleted: 0 };
    const kept: LogWeek[] = [];
    for (const week of await this.partitions.weeks()) {
      const outcome = week.end.getTime() <= cutoff ? await this.partitions.dropWeek(week, this.options.lockTimeoutMs ?? 2_000) : 'kept';
      if (outcome === 'dropped') turn.dropped.push(week.suffix);
      else {
        if (outcome === 'pending') turn.held.push(week.suffix);
        kept.push(week);
      }
    }
    // Keys go only below the oldest week kept: a week held for a pending delivery keeps its keys.
    const oldest = kept[0];
    if (oldest && !oldest.fromStart) turn.keysDeleted = await this.partitions.deleteKeysBefore(new Date(oldest.end.getTime() - 7 * DAY_MS));
    if (turn.dropped.length > 0 || turn.held.length > 0) this.logger.log({ msg: 'delivery log pruned', ...turn });
    this.export(kept, now);
    return turn;
  }

  /** The leader prunes; the other copies only export the log's gauges. */
  private async turn(): Promise<'caught-up'> {
    if (await this.lock.acquire()) await this.prune();
    else this.export(await this.partitions.weeks(), new Date());
    return 'caught-up';
  }

  private export(weeks: LogWeek[], now: Date): void {
    this.metrics.logPartitions.set(weeks.length);
    if (weeks.length > 0) this.metrics.logOldestWeekEnd.set((now.getTime() - weeks[0].end.getTime()) / 1000);
  }
}
