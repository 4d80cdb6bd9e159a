import { randomUUID } from 'node:crypto';
import { isolatedDatabase, sleep } from '../testing/harness';
import type { NewDelivery } from '../delivery-log/delivery';
import { BatchPools } from '../delivery-log/batch-pools';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { WriteBehindLeases } from './write-behind-leases';

const EVT = 'Product.RiskAssessmentExecuted';
const delivery = (domain: string, eventId = randomUUID()): NewDelivery => ({ domain, eventId, eventName: EVT, body: JSON.stringify({ eventId }) });

describe('WriteBehindLeases (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let store: NewDeliveries;

  beforeAll(async () => {
    db = await isolatedDatabase('write-behind');
    store = new NewDeliveries(new BatchPools(db.pool));
  });
  afterAll(() => db.drop());

  const leasesOf = async (eventIds: string[]) =>
    (await db.pool.query('select id, lease_owner, lease_token from webhook_deliveries where event_id = any($1::uuid[]) order by seq', [eventIds])).rows;

  it('leases at once and writes every lease made within the linger in one statement after it', async () => {
    const writes = jest.spyOn(store, 'writeLeased');
    const leases = new WriteBehindLeases(store, { lingerMs: 2000 });
    const [a, b] = [delivery('acme'), delivery('globex')];
    const first = leases.lease([a], 'copy-1', 60_000);
    const second = leases.lease([b], 'copy-1', 60_000);
    expect(first.leased).toEqual([{ id: expect.any(String), domain: 'acme', eventId: a.eventId, eventName: EVT, body: a.body, attempts: 0, roundStart: 0, leaseToken: expect.any(String) }]);
    await sleep(150);
    expect(await leasesOf([a.eventId, b.eventId])).toEqual([]);
    expect(await first.written).toBe(1);
    expect(await second.written).toBe(1);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(await leasesOf([a.eventId, b.eventId])).toEqual([first.leased, second.leased].flat().map((l) => ({ id: l.id, lease_owner: 'copy-1', lease_token: l.leaseToken })));
    writes.mockRestore();
  });

  it('does not lease an event leased lately again (a copy of it read again)', async () => {
    const leases = new WriteBehindLeases(store, { lingerMs: 10 });
    const a = delivery('acme');
    expect(leases.lease([a, a], 'copy-1', 60_000).leased).toHaveLength(1);
    expect(leases.lease([{ ...a, eventId: a.eventId.toUpperCase() }], 'copy-1', 60_000).leased).toEqual([]);
    await leases.flush();
    expect(leases.lease([a], 'copy-1', 60_000).leased).toEqual([]);
  });

  it('an event leased again while its first lease is on its way counts as stored only once that lease is written', async () => {
    const leases = new WriteBehindLeases(store, { lingerMs: 2000 });
    const a = delivery('acme');
    const first = leases.lease([a], 'copy-1', 60_000);
    const again = leases.lease([a], 'copy-1', 60_000);
    expect(again.leased).toEqual([]);
    let storedAgain = false;
    void again.written.then(() => (storedAgain = true));
    await sleep(150);
    expect(storedAgain).toBe(false);
    expect(await again.written).toBe(0);
    expect(await leasesOf([a.eventId])).toEqual([{ id: first.leased[0].id, lease_owner: 'copy-1', lease_token: first.leased[0].leaseToken }]);
  });

  it('tries a refused write again until it lands; flush waits for it', async () => {
    let refusals = 2;
    const flaky = { writeLeased: (...args: Parameters<NewDeliveries['writeLeased']>) => (refusals-- > 0 ? Promise.reject(new Error('connection lost')) : store.writeLeased(...args)) };
    const leases = new WriteBehindLeases(flaky, { lingerMs: 10, retryMs: 50 });
    const a = delivery('acme');
    const { leased, written } = leases.lease([a], 'copy-1', 60_000);
    await leases.flush();
    expect(refusals).toBe(-1);
    expect(await written).toBe(1);
    expect(await leasesOf([a.eventId])).toEqual([{ id: leased[0].id, lease_owner: 'copy-1', lease_token: leased[0].leaseToken }]);
  });

  it('gives a refused write up only when draining past its deadline: written then rejects', async () => {
    const down = { writeLeased: () => Promise.reject(new Error('database gone')) };
    const leases = new WriteBehindLeases(down, { lingerMs: 10_000, retryMs: 20 });
    const { written } = leases.lease([delivery('acme')], 'copy-1', 60_000);
    await leases.drain(Date.now() + 100);
    await expect(written).rejects.toThrow('database gone');
  });
});
