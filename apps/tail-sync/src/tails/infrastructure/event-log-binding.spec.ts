/**
 * The read model's binding to its event store log, on a real PostgreSQL (`DATABASE_URL`): two
 * copies of tail-sync starting together on a new database bind in the same moment.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresEventLogBinding } from './event-log-binding';
import { createTestStores, type TestStores } from './read-model/read-model.test-support';
import { readModelTables } from './read-model/read-model.tables';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('event-log-binding.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

describe('PostgresEventLogBinding', () => {
  let s: TestStores;
  beforeAll(async () => {
    s = await createTestStores('elb', DATABASE_URL);
  });
  afterAll(() => s.cleanup());

  it('answers the first copy\'s log to a copy whose bind waited on it (no row missing from its answer)', async () => {
    const tables = readModelTables(s.schema);
    const first = await s.pool.connect();
    try {
      await first.query('begin');
      await first.query(`insert into ${tables.eventLog} (log) values ('postgres:first')`);
      const second = new PostgresEventLogBinding(s.pool, tables).bind('postgres:second');
      // The second copy's insert now waits on the first's uncommitted row.
      while ((await s.pool.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%on conflict (only_row)%'`)).rowCount === 0) await sleep(20);
      await first.query('commit');
      await expect(second).resolves.toBe('postgres:first');
    } finally {
      first.release();
    }
  });
});
