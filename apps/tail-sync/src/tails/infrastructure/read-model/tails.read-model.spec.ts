/**
 * TailsReadModel queries against a real PostgreSQL (`DATABASE_URL`), fed by the real projection.
 */
import { normalizeTailProperties } from '@tailsync/contracts';
import type { AllCheckpoint } from '@tailsync/event-store';
import { TailsProjection } from './tails.projection';
import { decodeTailCursor, encodeTailCursor, TailListQueryError, TailsReadModel } from './tails.read-model';
import { createTestStores, tailIdOf, type TestStores } from './read-model.test-support';

const DATABASE_URL = process.env.DATABASE_URL;
const describeDb = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL) console.warn('tails.read-model.spec: DATABASE_URL is not set; the PostgreSQL integration tests are skipped');

describe('tail list cursors', () => {
  it('round-trips and rejects garbage', () => {
    expect(decodeTailCursor(encodeTailCursor(1))).toBe(1);
    expect(decodeTailCursor(encodeTailCursor(9_007_199_254_740_991))).toBe(9_007_199_254_740_991);
    expect(encodeTailCursor(42)).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of ['', '!!', 'abc', Buffer.from('0').toString('base64url'), Buffer.from('-1').toString('base64url'), 'x'.repeat(100)]) {
      expect(() => decodeTailCursor(bad)).toThrow(TailListQueryError);
    }
  });
});

describeDb('TailsReadModel (PostgreSQL)', () => {
  let s: TestStores;
  let projection: TailsProjection;
  let rm: TailsReadModel;
  let domain: string;
  let other: string;
  /** tail ids of domain's tails N0..N6, in creation order (ascending). */
  const ids: number[] = [];

  const project = (cp: AllCheckpoint | null) => projection.waitFor(cp, 5000);

  beforeAll(async () => {
    s = await createTestStores('rmq', DATABASE_URL as string);
    projection = new TailsProjection(s.pool, s.store, { schema: s.schema });
    rm = new TailsReadModel(s.pool, { schema: s.schema });
    domain = s.unique('acme');
    other = s.unique('globex');
    const a = { domain, source: 'client-a' };
    const created = await s.writer.createOrMapMany(
      a,
      Array.from({ length: 7 }, (_, i) => ({ mappedId: `A-${i}`, tailNumber: `N${i}`, passengerSeating: i })),
    );
    ids.push(...created.results.map(tailIdOf));
    // Source b maps N1 and N2; N3 and N5 are inactive; N4 is renumbered to 'x-Ray 4'.
    await project(created.checkpoint);
    await project((await s.writer.createOrMapMany({ domain, source: 'client-b' }, [{ mappedId: 'B-1', tailNumber: 'n1' }, { mappedId: 'B-2', tailNumber: 'N2 ' }])).checkpoint);
    await project((await s.writer.deactivate(a, 'A-3')).checkpoint);
    await project((await s.writer.deactivate(a, 'A-5')).checkpoint);
    await project((await s.writer.changeTailNumber(a, 'A-4', 'x-Ray 4')).checkpoint);
    // Another domain with the same Mapped IDs, numbers and source names.
    await project((await s.writer.createOrMapMany({ domain: other, source: 'client-a' }, [{ mappedId: 'A-0', tailNumber: 'N0' }, { mappedId: 'A-1', tailNumber: 'N1' }])).checkpoint);
  });

  afterAll(async () => {
    if (!s) return;
    await projection.stop();
    await s.cleanup();
  });

  it('reads one tail by the caller\'s Mapped ID, with the caller\'s mappedId and every mapping', async () => {
    const byA = await rm.getByMappedId(domain, 'client-a', 'A-1');
    const byB = await rm.getByMappedId(domain, 'client-b', 'B-1');
    expect(byA).toEqual({
      tailId: ids[1],
      mappedId: 'A-1',
      tailNumber: 'N1',
      ...normalizeTailProperties({ passengerSeating: 1 }),
      status: 'active',
      mappings: [
        { source: 'client-a', mappedId: 'A-1' },
        { source: 'client-b', mappedId: 'B-1' },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 2,
    });
    expect(byB).toEqual({ ...byA, mappedId: 'B-1' });
    // Mapped IDs are per source and compared exactly.
    expect(await rm.getByMappedId(domain, 'client-b', 'A-1')).toBeNull();
    expect(await rm.getByMappedId(domain, 'client-a', 'a-1')).toBeNull();
    expect(await rm.getByTailId(domain, ids[1], 'client-b')).toEqual(byB);
    expect(await rm.getByTailId(domain, ids[1])).toEqual({ ...byA, mappedId: null });
  });

  it('reads several tails by Mapped ID in one call, in the order asked, each in its own domain', async () => {
    const keys = [
      { domain, source: 'client-b', mappedId: 'B-1' },
      { domain: other, source: 'client-a', mappedId: 'A-0' },
      { domain, source: 'client-a', mappedId: 'a-1' },
      { domain, source: 'client-a', mappedId: 'A-0' },
      { domain, source: 'client-b', mappedId: 'B-1' },
      { domain: s.unique('nobody'), source: 'client-a', mappedId: 'A-0' },
    ];
    const one = (k: (typeof keys)[number]) => rm.getByMappedId(k.domain, k.source, k.mappedId);
    const singly = await Promise.all(keys.map(one));
    expect(singly.map((v) => v?.tailId ?? null)).toEqual([ids[1], expect.any(Number), null, ids[0], ids[1], null]);
    expect(singly[1]!.tailId).not.toBe(ids[0]);
    expect(await rm.getManyByMappedId(keys)).toEqual(singly);
  });

  it('keeps domains apart', async () => {
    const mine = await rm.getByMappedId(domain, 'client-a', 'A-0');
    const theirs = await rm.getByMappedId(other, 'client-a', 'A-0');
    expect(mine?.tailId).toBe(ids[0]);
    expect(theirs).not.toBeNull();
    expect(theirs!.tailId).not.toBe(ids[0]);
    expect(await rm.getByTailId(other, ids[0])).toBeNull();
    expect(await rm.getByTailId(domain, theirs!.tailId)).toBeNull();
    const page = await rm.list(other, 'client-a');
    expect(page.items.map((t) => t.tailNumber)).toEqual(['N0', 'N1']);
    expect(page.items.every((t) => t.mappings.length === 1)).toBe(true);
    expect((await rm.list(s.unique('nobody'), 'client-a')).items).toEqual([]);
  });

  it('lists the domain\'s tails in tail id order with keyset pagination', async () => {
    const all = await rm.list(domain, 'client-a');
    expect(all.nextCursor).toBeNull();
    expect(all.items.map((t) => t.tailId)).toEqual(ids);

    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await rm.list(domain, 'client-a', { limit: 3, cursor });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((t) => t.tailId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);

    // Exactly one page when the limit equals the count: no empty trailing page.
    const exact = await rm.list(domain, 'client-a', { limit: 7 });
    expect(exact.items).toHaveLength(7);
    expect(exact.nextCursor).toBeNull();

    // The caller's mappedId, null where the caller has none.
    const forB = await rm.list(domain, 'client-b');
    expect(forB.items.map((t) => t.mappedId)).toEqual([null, 'B-1', 'B-2', null, null, null, null]);
  });

  it('filters by status and by tail number (trimmed, case-insensitive)', async () => {
    const inactive = await rm.list(domain, 'client-a', { status: 'inactive' });
    expect(inactive.items.map((t) => t.mappedId)).toEqual(['A-3', 'A-5']);
    const active = await rm.list(domain, 'client-a', { status: 'active', limit: 2 });
    expect(active.items.map((t) => t.mappedId)).toEqual(['A-0', 'A-1']);
    const rest = await rm.list(domain, 'client-a', { status: 'active', limit: 2, cursor: active.nextCursor! });
    expect(rest.items.map((t) => t.mappedId)).toEqual(['A-2', 'A-4']);
    expect((await rm.list(domain, 'client-a', { status: 'active', limit: 2, cursor: rest.nextCursor! })).items.map((t) => t.mappedId)).toEqual(['A-6']);

    expect((await rm.list(domain, 'client-a', { tailNumber: '  X-RAY 4 ' })).items.map((t) => t.mappedId)).toEqual(['A-4']);
    expect((await rm.list(domain, 'client-a', { tailNumber: 'n4' })).items).toEqual([]); // renumbered away
    expect((await rm.list(domain, 'client-a', { tailNumber: 'n3', status: 'inactive' })).items.map((t) => t.tailId)).toEqual([ids[3]]);
    expect((await rm.list(domain, 'client-a', { tailNumber: 'n3', status: 'active' })).items).toEqual([]);
    expect((await rm.list(other, 'client-a', { tailNumber: 'n3' })).items).toEqual([]);
  });

  it('rejects bad queries with the offending field', async () => {
    const field = async (q: Parameters<TailsReadModel['list']>[2]) => {
      try {
        await rm.list(domain, 'client-a', q);
      } catch (e) {
        if (e instanceof TailListQueryError) return e.field;
        throw e;
      }
      return null;
    };
    expect(await field({ limit: 0 })).toBe('limit');
    expect(await field({ limit: 501 })).toBe('limit');
    expect(await field({ limit: 1.5 })).toBe('limit');
    expect(await field({ cursor: 'nope' })).toBe('cursor');
    expect(await field({ status: 'deleted' as never })).toBe('status');
    expect(await field({ limit: 500 })).toBeNull();
  });
});
