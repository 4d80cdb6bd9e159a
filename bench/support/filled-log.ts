/**
 * A delivery log of past weeks for W4L: `total` delivered deliveries (one attempt each, bodies as
 * W4's) in the five weekly partitions before this week, and their dedupe keys, made with `insert …
 * select from generate_series` in PostgreSQL. It is put in and taken out of the live log in one
 * transaction each (partitions attached/detached, the keys table swapped), so W4L's bursts with an
 * empty and a filled log can alternate on one running stack. Changes the stack's delivery log: the
 * bench's own stack only.
 */
import { Client } from 'pg';

const WEEKS = 5;
const DAY_MS = 86_400_000;

interface Week {
  suffix: string;
  from: Date;
  to: Date;
}

export class FilledLog {
  private attached = false;

  private constructor(private readonly client: Client, private readonly weeks: Week[], readonly total: number) {}

  /**
   * Makes the past weeks (detached). The log's first partition starts at the beginning of time; it
   * is narrowed to this week first (its rows are the bench's, all made today) so past weeks can be
   * partitions of their own, as they are in a log that has run for weeks.
   */
  static async make(databaseUrl: string, total: number, log: (line: string) => void): Promise<FilledLog> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const monday = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - ((new Date().getUTCDay() + 6) % 7)));
    const weeks = Array.from({ length: WEEKS }, (_, i): Week => {
      const to = new Date(monday.getTime() - i * 7 * DAY_MS);
      return { suffix: `to_${to.toISOString().slice(0, 10).replaceAll('-', '')}`, from: new Date(to.getTime() - 7 * DAY_MS), to };
    });
    await narrowFirstPartition(client, monday);
    const perWeek = Math.ceil(total / WEEKS);
    for (const [i, week] of weeks.entries()) {
      const started = Date.now();
      await client.query(`create table webhook_deliveries_${week.suffix} (like webhook_deliveries including defaults including constraints)`);
      await client.query(
        `insert into webhook_deliveries_${week.suffix} (domain, event_id, event_name, body, status, attempts, next_attempt_at, created_at, updated_at)
         select 'bench-fill-' || (g % 1000), e, 'Product.RiskAssessmentExecuted',
                json_build_object('eventId', e, 'domain', 'bench-fill-' || (g % 1000), 'occurredAt', t, 'data', json_build_object('score', g % 100, 'model', 'bench'))::text,
                'delivered', 1, t, t, t
           from (select g, gen_random_uuid() as e, $1::timestamptz + make_interval(secs => g * $3::float8) as t from generate_series(0, $2 - 1) g) s`,
        [week.from, perWeek, (7 * 86_400) / perWeek],
      );
      await client.query(`create table webhook_attempts_${week.suffix} (like webhook_attempts including constraints)`);
      await client.query(
        `insert into webhook_attempts_${week.suffix} (delivery_id, delivery_created_at, attempt, at, status_code, duration_ms)
         select id, created_at, 1, created_at, 200, 12 from webhook_deliveries_${week.suffix}`,
      );
      // Attaching then checks nothing: these say the rows are within the week.
      await client.query(`alter table webhook_deliveries_${week.suffix} add constraint bench_week check (created_at >= '${week.from.toISOString()}' and created_at < '${week.to.toISOString()}')`);
      await client.query(`alter table webhook_attempts_${week.suffix} add constraint bench_week check (delivery_created_at >= '${week.from.toISOString()}' and delivery_created_at < '${week.to.toISOString()}')`);
      log(`W4L: week ${i + 1}/${WEEKS} of the filled log, ${perWeek.toLocaleString('en-US')} deliveries, in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    await client.query('create table webhook_delivery_keys_bench_filled (like webhook_delivery_keys)');
    for (const week of weeks) {
      await client.query(`insert into webhook_delivery_keys_bench_filled select domain, event_id, id, created_at from webhook_deliveries_${week.suffix}`);
    }
    await client.query('alter table webhook_delivery_keys_bench_filled add constraint webhook_delivery_keys_bench_filled_pkey primary key (domain, event_id)');
    await client.query('create index webhook_delivery_keys_bench_filled_created_at_idx on webhook_delivery_keys_bench_filled using brin (created_at)');
    const filled = new FilledLog(client, weeks, perWeek * WEEKS);
    // The first attach builds the partitions' indexes; later ones adopt them.
    const started = Date.now();
    await filled.attach();
    log(`W4L: indexes of the filled log built in ${Math.round((Date.now() - started) / 1000)} s`);
    await client.query('vacuum analyze webhook_delivery_keys');
    for (const week of weeks) await client.query(`vacuum analyze webhook_deliveries_${week.suffix}, webhook_attempts_${week.suffix}`);
    return filled;
  }

  /** The past weeks in the log, and their keys (with the keys of today's deliveries) in the keys table. */
  async attach(): Promise<void> {
    if (this.attached) return;
    await this.inTransaction(async () => {
      for (const w of this.weeks) {
        await this.client.query(`alter table webhook_deliveries attach partition webhook_deliveries_${w.suffix} for values from ('${w.from.toISOString()}') to ('${w.to.toISOString()}')`);
        await this.client.query(`alter table webhook_attempts attach partition webhook_attempts_${w.suffix} for values from ('${w.from.toISOString()}') to ('${w.to.toISOString()}')`);
      }
      await this.client.query('insert into webhook_delivery_keys_bench_filled select * from webhook_delivery_keys on conflict do nothing');
      await this.swapKeys();
    });
    this.attached = true;
  }

  /** The log as the bench made it: no past week, and only today's keys. */
  async detach(): Promise<void> {
    if (!this.attached) return;
    await this.inTransaction(async () => {
      for (const w of this.weeks) {
        await this.client.query(`alter table webhook_deliveries detach partition webhook_deliveries_${w.suffix}`);
        await this.client.query(`alter table webhook_attempts detach partition webhook_attempts_${w.suffix}`);
      }
      await this.swapKeys();
      // the keys made while it was filled go with the deliveries they belong to
      await this.client.query('insert into webhook_delivery_keys select * from webhook_delivery_keys_bench_filled where created_at >= $1 on conflict do nothing', [this.weeks[0].to]);
      await this.client.query('delete from webhook_delivery_keys_bench_filled where created_at >= $1', [this.weeks[0].to]);
    });
    this.attached = false;
  }

  /** Takes the filled log out of the stack and ends the connection. */
  async remove(): Promise<void> {
    await this.detach();
    for (const w of this.weeks) await this.client.query(`drop table webhook_deliveries_${w.suffix}, webhook_attempts_${w.suffix}`);
    await this.client.query('drop table webhook_delivery_keys_bench_filled');
    await this.client.end();
  }

  private async swapKeys(): Promise<void> {
    await this.client.query('alter table webhook_delivery_keys rename to webhook_delivery_keys_bench_swap');
    await this.client.query('alter table webhook_delivery_keys_bench_filled rename to webhook_delivery_keys');
    await this.client.query('alter table webhook_delivery_keys_bench_swap rename to webhook_delivery_keys_bench_filled');
  }

  private async inTransaction(work: () => Promise<void>): Promise<void> {
    await this.client.query('begin');
    try {
      await work();
      await this.client.query('commit');
    } catch (error) {
      await this.client.query('rollback');
      throw error;
    }
  }
}

/** The first partition `[minvalue, next Monday)` becomes `[monday, next Monday)`: the bench's rows are today's. */
async function narrowFirstPartition(client: Client, monday: Date): Promise<void> {
  const { rows } = await client.query<{ name: string; bound: string }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'webhook_deliveries'::regclass and pg_get_expr(c.relpartbound, c.oid) like '%MINVALUE%'`,
  );
  if (rows.length === 0) return;
  const suffix = rows[0].name.replace('webhook_deliveries_', '');
  const end = new Date(monday.getTime() + 7 * DAY_MS).toISOString();
  await client.query('begin');
  for (const table of ['webhook_deliveries', 'webhook_attempts']) {
    await client.query(`alter table ${table} detach partition ${table}_${suffix}`);
    await client.query(`alter table ${table} attach partition ${table}_${suffix} for values from ('${monday.toISOString()}') to ('${end}')`);
  }
  await client.query('commit');
}
