/**
 * A copy cut off from its database mid-transaction looks, to the server, like a session that went
 * silent while it held locks. The other copies must get those locks back in seconds, not when the
 * network heals (the fault suite's "cut off from PostgreSQL": before this, every write of every
 * copy waited on the cut copy's projection lock for the whole cut and after).
 */
import { createPool } from './postgres-pool';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('postgres-pool.spec.ts needs DATABASE_URL (the real PostgreSQL the test command starts)');

/** The lock's key: this spec's own. */
const LOCK = 45_0045;

it("gives a silent session's transaction locks to another copy within seconds", async () => {
  const silent = createPool(DATABASE_URL, 1);
  const other = createPool(DATABASE_URL, 1);
  const holder = await silent.connect();
  try {
    await holder.query(`begin; select pg_advisory_xact_lock(${LOCK})`);
    // The holder now sends nothing more, as a copy cut off the network does.
    const started = Date.now();
    const taken = other.query(`begin; select pg_advisory_xact_lock(${LOCK}); commit`).then(() => Date.now() - started);
    const gaveUp = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 20 s'), 20_000).unref());
    const waited = await Promise.race([taken, gaveUp]);
    expect(waited).toEqual(expect.any(Number));
    expect(waited).toBeLessThan(15_000);
    // The silent session was ended by the server, not by this side.
    await expect(holder.query('select 1')).rejects.toThrow();
  } finally {
    holder.release(true);
    await Promise.all([silent.end(), other.end()]);
  }
}, 30_000);
