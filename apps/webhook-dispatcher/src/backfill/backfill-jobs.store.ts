import type { NewDelivery } from '../delivery-log/delivery';
import { inTransaction } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import type { BackfillCheckpoint, BackfillView, ClaimedBackfill } from './backfill-job';

interface JobRow {
  id: string;
  domain: string;
  since: Date;
  state: BackfillView['state'];
  events_found: string;
  events_stored: string;
  checkpoint: BackfillCheckpoint;
  started_at: Date | null;
  finished_at: Date | null;
}

const VIEW_COLUMNS = 'id, domain, since, state, events_found, events_stored, checkpoint, started_at, finished_at';

/** Claims serialise on this transaction-level advisory lock, so the running count they read is exact across copies. */
const CLAIM_LOCK = "hashtext('webhook_backfills.claim')";

export const backfillView = (row: JobRow): BackfillView => ({
  backfillId: row.id,
  since: row.since.toISOString(),
  state: row.state,
  eventsFound: Number(row.events_found),
  eventsStored: Number(row.events_stored),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
});

/** What a page's commit found: the job goes on, or it was cancelled (or taken over) meanwhile and stops. */
export type PageOutcome = 'continue' | 'stop';

/** A stored page's outcome, or 'ahead': its deliveries now run further ahead of their pace than the job may store. */
export type StoredPage = PageOutcome | 'ahead';

/** The job a copy stores pages for: its lease, the pace of its deliveries, and how far ahead of it it may store. */
export interface PagedJob {
  id: string;
  owner: string;
  leaseMs: number;
  perSecond: number;
  aheadMs: number;
}

/**
 * The backfill jobs table (`webhook_backfills`): queued one per domain, claimed by a copy with a
 * lease under a cap across all copies, checkpointed page by page with the page's deliveries.
 */
export class BackfillJobs {
  constructor(
    private readonly pool: Pool,
    private readonly deliveries: NewDeliveries,
  ) {}

  /** A new queued job, or the id of the domain's queued or running one. */
  async enqueue(id: string, domain: string, since: Date): Promise<{ queued: BackfillView } | { active: string }> {
    // Two tries: the active job may finish between the refused insert and the look-up.
    for (let attempt = 0; attempt < 2; attempt++) {
      const { rows } = await this.pool.query<JobRow>(
        `insert into webhook_backfills (id, domain, since) values ($1, $2, $3)
         on conflict (domain) where state in ('queued', 'running') do nothing
         returning ${VIEW_COLUMNS}`,
        [id, domain, since],
      );
      if (rows[0]) return { queued: backfillView(rows[0]) };
      const active = await this.pool.query<{ id: string }>(`select id from webhook_backfills where domain = $1 and state in ('queued', 'running')`, [domain]);
      if (active.rows[0]) return { active: active.rows[0].id };
    }
    throw new Error('the domain’s active backfill changed twice while queueing one');
  }

  async find(domain: string, id: string): Promise<BackfillView | null> {
    const { rows } = await this.pool.query<JobRow>(`select ${VIEW_COLUMNS} from webhook_backfills where domain = $1 and id = $2`, [domain, id]);
    return rows[0] ? backfillView(rows[0]) : null;
  }

  /** The domain's most recent jobs, newest first. */
  async list(domain: string, limit: number): Promise<BackfillView[]> {
    const { rows } = await this.pool.query<JobRow>(`select ${VIEW_COLUMNS} from webhook_backfills where domain = $1 order by created_at desc limit $2`, [domain, limit]);
    return rows.map(backfillView);
  }

  /** Cancels a queued or running job: its view then, or what it is (`null`: no such job of the domain). */
  async cancel(domain: string, id: string): Promise<{ cancelled: BackfillView } | { finished: BackfillView } | null> {
    const { rows } = await this.pool.query<JobRow>(
      `update webhook_backfills set state = 'cancelled', finished_at = clock_timestamp(), lease_owner = null, lease_until = null
        where domain = $1 and id = $2 and state in ('queued', 'running')
        returning ${VIEW_COLUMNS}`,
      [domain, id],
    );
    if (rows[0]) return { cancelled: backfillView(rows[0]) };
    const found = await this.find(domain, id);
    return found ? { finished: found } : null;
  }

  /**
   * Leases the oldest queued job to `owner` (or a running one whose copy let its lease run out),
   * when fewer than `cap` jobs hold a live lease across all copies.
   */
  async claim(owner: string, leaseMs: number, cap: number): Promise<ClaimedBackfill | null> {
    return inTransaction(this.pool, async (client) => {
      // The clock, not now(): the transaction may have waited for the lock while another job finished.
      await client.query(`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
      const { rows } = await client.query<JobRow>(
        `with running as (select count(*) as n from webhook_backfills where state = 'running' and lease_until > clock_timestamp()),
              next as (
                select id from webhook_backfills
                 where state = 'queued' or (state = 'running' and lease_until <= clock_timestamp())
                 order by created_at limit 1 for update skip locked
              )
         update webhook_backfills b
            set state = 'running', lease_owner = $1, lease_until = clock_timestamp() + make_interval(secs => $2::float8 / 1000),
                started_at = coalesce(started_at, clock_timestamp())
           from next, running
          where b.id = next.id and running.n < $3
         returning ${VIEW_COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')}`,
        [owner, leaseMs, cap],
      );
      const row = rows[0];
      return row ? { id: row.id, domain: row.domain, since: row.since, checkpoint: row.checkpoint } : null;
    });
  }

  /**
   * Stores one page: its events that have no delivery, paced at `perSecond` after the job's last
   * ones, with the job's new checkpoint and counts and a renewed lease, in one transaction. When the
   * job is no longer this owner's running job (cancelled, or taken over), nothing is stored;
   * 'ahead' when its last delivery is now due more than `aheadMs` from now.
   */
  async storePage(job: PagedJob, events: NewDelivery[], checkpoint: BackfillCheckpoint): Promise<StoredPage> {
    return inTransaction(this.pool, async (client) => {
      const held = await client.query<{ paced_from: Date }>(
        `select greatest(now(), coalesce(paced_until, now())) as paced_from from webhook_backfills
          where id = $1 and lease_owner = $2 and state = 'running' for update`,
        [job.id, job.owner],
      );
      if (!held.rows[0]) return 'stop';
      const stored = await this.deliveries.insertBackfill(events, job.perSecond, job.id, held.rows[0].paced_from, client);
      const { rows } = await client.query<{ ahead: boolean }>(
        `update webhook_backfills
            set checkpoint = $3, events_found = events_found + $4, events_stored = events_stored + $5,
                paced_until = $6::timestamptz + make_interval(secs => $5::float8 / $7),
                lease_until = now() + make_interval(secs => $8::float8 / 1000)
          where id = $1 and lease_owner = $2
          returning paced_until > now() + make_interval(secs => $9::float8 / 1000) as ahead`,
        [job.id, job.owner, JSON.stringify(checkpoint), events.length, stored, held.rows[0].paced_from, job.perSecond, job.leaseMs, job.aheadMs],
      );
      return rows[0].ahead ? 'ahead' : 'continue';
    });
  }

  /** Keeps the lease while a page takes long (waiting for the broker): 'stop' when the job is no longer this owner's. */
  async renew(id: string, owner: string, leaseMs: number): Promise<PageOutcome> {
    const { rowCount } = await this.pool.query(
      `update webhook_backfills set lease_until = now() + make_interval(secs => $3::float8 / 1000) where id = $1 and lease_owner = $2 and state = 'running'`,
      [id, owner, leaseMs],
    );
    return rowCount ? 'continue' : 'stop';
  }

  /** Ends this owner's running job as done or failed (a cancelled or taken-over job is left as it is). */
  async finish(id: string, owner: string, state: 'done' | 'failed', error?: string): Promise<void> {
    await this.pool.query(
      `update webhook_backfills set state = $3, error = $4, finished_at = clock_timestamp(), lease_owner = null, lease_until = null
        where id = $1 and lease_owner = $2 and state = 'running'`,
      [id, owner, state, error ?? null],
    );
  }

  /**
   * Gives the job back until its deliveries are due within `resumeMs`: it keeps its place under the
   * cap (its lease runs until then), and the first copy to claim it after resumes from its checkpoint.
   */
  async pause(id: string, owner: string, resumeMs: number): Promise<void> {
    await this.pool.query(
      `update webhook_backfills set lease_owner = null, lease_until = paced_until - make_interval(secs => $3::float8 / 1000)
        where id = $1 and lease_owner = $2 and state = 'running'`,
      [id, owner, resumeMs],
    );
  }

  /** Gives the job back at once (the copy stops): the next claim resumes it from its checkpoint. */
  async release(id: string, owner: string): Promise<void> {
    await this.pool.query(`update webhook_backfills set lease_until = now() where id = $1 and lease_owner = $2 and state = 'running'`, [id, owner]);
  }
}
