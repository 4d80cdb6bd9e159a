/**
 * The apps' pool (`createPool`) in a process cut off from PostgreSQL while a query is on its way:
 * packets dropped, no reset, as in a partition. Once the network is back the pool must serve at
 * once, not when TCP's retransmission back-off next tries the dropped query (about 25 s after a
 * 15 s cut), which held the pool's slots and refused the copy's calls after the heal.
 */
import { createPool } from '@tailsync/service-kit';
import { cutOff, cutsInPlace } from '@tailsync/tools/testing';
import { databaseOfItsOwn } from './support/fault-stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('serves at once when its network comes back, though its connection was cut with a query in flight', async () => {
  const url = await databaseOfItsOwn('pool-cut');
  // One connection, so the query caught in the cut holds the pool's only slot, as a busy copy's do.
  const pool = createPool(url, 1);
  try {
    await pool.query('select 1');
    // This process loses the server for 15 s, a query on its way.
    const cut = cutOff(process.pid, `pool-cut-${process.pid}`, [Number(new URL(url).port)]);
    let caught: Promise<string>;
    try {
      caught = pool.query('select 1').then(() => 'answered', (error: Error) => error.message);
      await sleep(15_000);
    } finally {
      await cut.heal();
    }
    const started = Date.now();
    await pool.query('select 1').catch((error: Error) => {
      // Seen once under CI's load (a new connection timed out after the heal): says whether a cut was still dropping packets.
      throw new Error(`${error.message} ${Date.now() - started} ms after the heal; the cuts in place then:\n${cutsInPlace().join('\n') || '(none)'}`, { cause: error });
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    // Given up on while cut (the socket's TCP user time-out), not answered late.
    await expect(caught).resolves.toMatch(/timed out|ETIMEDOUT|terminated/i);
  } finally {
    await pool.end();
  }
}, 60_000);
