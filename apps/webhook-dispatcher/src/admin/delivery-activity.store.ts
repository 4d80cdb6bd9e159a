import type { AttentionSubscription, MinuteCount } from '@tailsync/contracts';
import type { Pool } from 'pg';

/** Deliveries ending within the window were created at most this long before it (retries, recoveries). */
const OUTCOME_LOOKBACK = '1 day';

/** Counts of the delivery log per domain and minute, and subscriptions an operator should look at. */
export class DeliveryActivityStore {
  constructor(private readonly pool: Pool) {}

  async consumedPerMinute(since: Date): Promise<MinuteCount[]> {
    const { rows } = await this.pool.query(
      `select domain, date_trunc('minute', created_at) as minute, count(*)::int as count
         from webhook_deliveries where created_at >= $1 group by 1, 2`,
      [since],
    );
    return rows.map(toCount);
  }

  /** Deliveries that reached `status`, per minute of that change (updated_at: a final state is not left but by a redelivery). */
  async outcomesPerMinute(since: Date): Promise<Record<'delivered' | 'failed' | 'skipped', MinuteCount[]>> {
    const { rows } = await this.pool.query(
      `select status, domain, date_trunc('minute', updated_at) as minute, count(*)::int as count
         from webhook_deliveries
        where created_at >= $1::timestamptz - interval '${OUTCOME_LOOKBACK}' and updated_at >= $1 and status in ('delivered', 'failed', 'skipped')
        group by 1, 2, 3`,
      [since],
    );
    const outcomes = { delivered: [] as MinuteCount[], failed: [] as MinuteCount[], skipped: [] as MinuteCount[] };
    for (const row of rows) outcomes[row.status as keyof typeof outcomes].push(toCount(row));
    return outcomes;
  }

  async attention(): Promise<AttentionSubscription[]> {
    const { rows } = await this.pool.query(
      `select domain, url, status, disabled_reason, failed_in_a_row, last_failure_at from webhook_subscriptions
        where status = 'disabled' or failed_in_a_row > 0 order by status desc, failed_in_a_row desc, domain limit 100`,
    );
    return rows.map((row) => ({
      domain: row.domain,
      url: row.url,
      status: row.status,
      disabledReason: row.disabled_reason,
      failedDeliveriesInARow: row.failed_in_a_row,
      lastFailureAt: row.last_failure_at ? (row.last_failure_at as Date).toISOString() : null,
    }));
  }
}

function toCount(row: Record<string, unknown>): MinuteCount {
  return { domain: row.domain as string, minute: (row.minute as Date).toISOString(), count: row.count as number };
}
