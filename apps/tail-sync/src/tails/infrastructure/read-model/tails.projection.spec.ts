/**
 * TailsProjection against a real PostgreSQL (`DATABASE_URL`): events written by the real
 * write side into the real PostgresEventStore, projected into tables of this run only.
 */
import { EsdbEventStore, newEventId, type AllCheckpoint } from '@tailsync/event-store';
import { InMemoryEsdbServer } from '@tailsync/event-store/testing';
import { runMigrations } from '@tailsync/service-kit';
import { migratedSchema } from '@tailsync/service-kit/testing';
import { TAIL_SYNC_MIGRATIONS } from '../../../tail-sync-migrations';
import type { CallerContext } from '../../application/caller-context';
import { tailStreamId } from '../../domain/stream-ids';
import { ProjectionTimeoutError, TailsProjection } from './tails.projection';
import { TailsReadModel } from './tails.read-model';
import { readModelTables } from './read-model.tables';
import { createTestStores, tailIdOf, type TestStores } from './read-model.test-support';

const DATABASE_URL = process.env.DATABASE_URL;
const describeDb = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL) console.warn('tails.projection.spec: DATABASE_URL is not set; the PostgreSQL integration tests are skipped');

describeDb('TailsProjection (PostgreSQL)', () => {
  let s: TestStores;
  let projection: TailsProjection;
  let readModel: TailsReadModel;
  const extra: TailsProjection[] = [];

  beforeAll(async () => {
    s = await createTestStores('rmp', DATABASE_URL as string);
    projection = new TailsProjection(s.pool, s.store, { schema: s.schema });
    readModel = new TailsReadModel(s.pool, { schema: s.schema });
  });

  afterAll(async () => {
    if (!s) return;
    await Promise.all([projection, ...extra].map((p) => p.stop()));
    await s.cleanup();
  });

  const ctx = (domain: string, source: string): CallerContext => ({ domain, source });
  const tables = () => readModelTables(s.schema);
  const snapshot = async () => {
    const t = tables();
    const tails = await s.pool.query(`select * from ${t.tails} order by tail_id`);
    const mappings = await s.pool.query(`select * from ${t.mappings} order by domain, source, mapped_id`);
    return { tails: tails.rows, mappings: mappings.rows };
  };

  it('projects every event type: create, mapping by a second source, deactivate, reactivate, renumber', async () => {
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    const b = ctx(domain, 'client-b');
    const created = await s.projectedWriter.createOrMapMany(a, [
      { mappedId: 'A-1', tailNumber: ' n100 ', registrationNumber: 'REG-1', icaoTypeName: 'B738', vendorTypeName: 'Boeing 737-800', countryCode: 'US', passengerSeating: 180 },
    ]);
    const tailId = tailIdOf(created.results[0]);
    await projection.waitFor(created.checkpoint as AllCheckpoint, 5000);

    let view = await readModel.getByMappedId(domain, 'client-a', 'A-1');
    expect(view).toMatchObject({
      tailId,
      mappedId: 'A-1',
      tailNumber: 'n100',
      registrationNumber: 'REG-1',
      icaoTypeName: 'B738',
      vendorTypeName: 'Boeing 737-800',
      countryCode: 'US',
      passengerSeating: 180,
      status: 'active',
      mappings: [{ source: 'client-a', mappedId: 'A-1' }],
      version: 1,
    });
    expect(view!.createdAt).toBe(view!.updatedAt);
    expect(new Date(view!.createdAt).toISOString()).toBe(view!.createdAt);

    const mapped = await s.projectedWriter.createOrMapMany(b, [{ mappedId: 'B-1', tailNumber: 'N100' }]);
    expect(mapped.results[0]).toEqual({ outcome: 'mapped', tailId });
    await projection.waitFor(mapped.checkpoint as AllCheckpoint, 5000);
    view = await readModel.getByMappedId(domain, 'client-b', 'B-1');
    expect(view).toMatchObject({
      tailId,
      mappedId: 'B-1',
      version: 2,
      mappings: [
        { source: 'client-a', mappedId: 'A-1' },
        { source: 'client-b', mappedId: 'B-1' },
      ],
    });

    const deactivated = await s.projectedWriter.deactivate(b, 'B-1');
    await projection.waitFor(deactivated.checkpoint as AllCheckpoint, 5000);
    expect(await readModel.getByMappedId(domain, 'client-a', 'A-1')).toMatchObject({ status: 'inactive', version: 3 });

    const reactivated = await s.projectedWriter.reactivate(a, 'A-1');
    await projection.waitFor(reactivated.checkpoint as AllCheckpoint, 5000);
    expect(await readModel.getByMappedId(domain, 'client-a', 'A-1')).toMatchObject({ status: 'active', version: 4 });

    // A renumber's append ends with a reservation event (the old number's release): waitFor must
    // still resolve on its checkpoint.
    const renumbered = await s.projectedWriter.changeTailNumber(a, 'A-1', ' N200 ');
    await projection.waitFor(renumbered.checkpoint as AllCheckpoint, 5000);
    view = await readModel.getByMappedId(domain, 'client-a', 'A-1');
    expect(view).toMatchObject({ tailNumber: 'N200', version: 5, status: 'active' });
    expect(view!.updatedAt >= view!.createdAt).toBe(true);
    const row = await s.pool.query(`select tail_number_key, domain from ${tables().tails} where tail_id = $1`, [tailId]);
    expect(row.rows[0]).toEqual({ tail_number_key: 'N200', domain });

    // The read model agrees with folding the stream.
    expect(view!.version).toBe((await s.store.readStream(`tail-${tailId}`)).length);
  });

  it('folds several events of one tail within one batch', async () => {
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    const created = await s.projectedWriter.createOrMapMany(a, [{ mappedId: 'M', tailNumber: 'X1' }]);
    await s.projectedWriter.createOrMapMany(ctx(domain, 'client-b'), [{ mappedId: 'MB', tailNumber: 'x1' }]);
    await s.projectedWriter.deactivate(a, 'M');
    const last = await s.projectedWriter.changeTailNumber(a, 'M', 'X2');
    await projection.waitFor(last.checkpoint as AllCheckpoint, 5000);
    expect(await readModel.getByMappedId(domain, 'client-b', 'MB')).toMatchObject({
      tailId: tailIdOf(created.results[0]),
      tailNumber: 'X2',
      status: 'inactive',
      version: 4,
      mappedId: 'MB',
    });
  });

  it('resolves waitFor at once for null and for checkpoints already reached; rejects on timeout', async () => {
    await projection.waitFor(null, 10);
    const cp = await projection.catchUp();
    expect(cp).not.toBeNull();
    await projection.waitFor(cp as AllCheckpoint, 1);
    const started = Date.now();
    const far = { value: '9007199254740991:1' };
    await expect(projection.waitFor(far, 150)).rejects.toBeInstanceOf(ProjectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(projection.waitFor(far, 50)).rejects.toThrow(/did not reach checkpoint 9007199254740991:1 within 50 ms/);
    expect(projection.pendingWaiters).toBe(0);
  });

  it('many concurrent commands waiting share catch-ups', async () => {
    const domain = s.unique('d');
    await projection.catchUp();
    const runsBefore = projection.runs;
    const n = 100;
    const started = Date.now();
    const views = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const r = await s.projectedWriter.createOrMapMany(ctx(domain, 'client-a'), [{ mappedId: `M-${i}`, tailNumber: `C${i}` }]);
        await projection.waitFor(r.checkpoint as AllCheckpoint, 10_000);
        // Readable by every caller right after waitFor.
        return readModel.getByMappedId(domain, 'client-a', `M-${i}`);
      }),
    );
    const elapsed = Date.now() - started;
    expect(views.every((v, i) => v !== null && v.mappedId === `M-${i}` && v.tailNumber === `C${i}`)).toBe(true);
    const runs = projection.runs - runsBefore;
    console.log(`[rm] ${n} concurrent create+waitFor: ${elapsed} ms, ${runs} catch-up runs`);
    expect(runs).toBeLessThan(n);
    expect(projection.pendingWaiters).toBe(0);
  });

  it('starts no run for waiters that the run in flight reaches, and one for a waiter it does not', async () => {
    const domain = s.unique('d');
    const created = await s.projectedWriter.createOrMapMany(ctx(domain, 'client-a'), [{ mappedId: 'Q-1', tailNumber: 'Q1' }]);
    let runsBefore = projection.runs;
    // The run in flight reads after the append, so it reaches the waiter queued behind it.
    const inFlight = projection.catchUp();
    const waited = projection.waitFor(created.checkpoint as AllCheckpoint, 5_000);
    await Promise.all([inFlight, waited]);
    expect(projection.runs - runsBefore).toBe(1);
    expect(await readModel.getByMappedId(domain, 'client-a', 'Q-1')).not.toBeNull();

    // A checkpoint no run reaches: the queued run starts (and more, until the waiter gives up).
    runsBefore = projection.runs;
    const running = projection.catchUp();
    const unreachable = projection.waitFor({ value: '9007199254740991:1' }, 200);
    await running;
    await expect(unreachable).rejects.toBeInstanceOf(ProjectionTimeoutError);
    expect(projection.runs - runsBefore).toBeGreaterThanOrEqual(2);
    expect(projection.pendingWaiters).toBe(0);
  });

  // How fast is the bench's business (W2, W5, B-pgx1 in docs/performance.md): a timed assertion
  // here failed whenever the machine was busy, and proved nothing about the code.
  it('projects a 1,000-tail bulk create in one batch', async () => {
    const domain = s.unique('d');
    await projection.catchUp();
    const inputs = Array.from({ length: 1000 }, (_, i) => ({
      mappedId: `B-${i}`,
      tailNumber: `BULK${i}`,
      registrationNumber: `R${i}`,
      countryCode: 'DE',
      passengerSeating: i % 300,
    }));
    const written = await s.projectedWriter.createOrMapMany(ctx(domain, 'client-a'), inputs);
    const stats = await projection.catchUpWithStats();
    expect(stats.tailEvents).toBe(1000);
    expect(stats.batches).toBe(1);
    expect(s.store.isAtOrAfter(projection.checkpoint, written.checkpoint as AllCheckpoint)).toBe(true);
    const page = await readModel.list(domain, 'client-a', { limit: 500 });
    expect(page.items).toHaveLength(500);
  });

  it('is idempotent: replaying from the origin over the existing rows changes nothing', async () => {
    await projection.catchUp();
    const before = await snapshot();
    await s.pool.query(`delete from ${tables().checkpoints} where name = 'tails'`);
    const stats = await projection.catchUpWithStats();
    expect(stats.events).toBeGreaterThan(0);
    expect(stats.tailEvents).toBe(0); // every event already applied (version guard)
    expect(await snapshot()).toEqual(before);
  });

  it('leaves the rows an append wrote itself as they are: readable at once, nothing applied twice, no warning', async () => {
    const warnings: string[] = [];
    const own = new TailsProjection(s.pool, s.store, { schema: s.schema, name: 'tails-after-appends', logger: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
    extra.push(own);
    await own.catchUp();
    const a = ctx(s.unique('d'), 'client-a');
    // The write side as tail-sync runs it: no catch-up between the calls and the reads.
    const created = await s.writer.createOrMapMany(a, [{ mappedId: 'W-1', tailNumber: 'W1' }, { mappedId: 'W-2', tailNumber: 'W2' }]);
    expect(created.checkpoint).toBeNull();
    const deactivated = await s.writer.deactivate(a, 'W-2');
    expect(deactivated.checkpoint).toBeNull();
    expect(await readModel.getByMappedId(a.domain, 'client-a', 'W-1')).toMatchObject({ tailNumber: 'W1', status: 'active', version: 1 });
    expect(await readModel.getByMappedId(a.domain, 'client-a', 'W-2')).toMatchObject({ tailNumber: 'W2', status: 'inactive', version: 2 });
    const before = await snapshot();

    const stats = await own.catchUpWithStats();
    expect(stats.events).toBeGreaterThanOrEqual(3);
    expect(stats.tailEvents).toBe(0); // the version guard: the appends' rows are already there
    expect(await snapshot()).toEqual(before);
    expect(warnings).toEqual([]);
  });

  it('skips an event of a type it does not know (without a domain) and applies the known ones after it', async () => {
    const c = ctx(s.unique('future'), 'client-a');
    const created = await s.projectedWriter.createOrMapMany(c, [{ mappedId: 'F-1', tailNumber: 'N-F1' }]);
    const tailId = tailIdOf(created.results[0]);
    await projection.catchUp();
    // A later version's event (no domain in its data), then a deactivation, in one batch for this tail.
    const base = { domain: c.domain, tailId, actor: 'client-a', occurredAt: '2030-01-01T00:00:00.000Z' };
    const deactivationId = newEventId();
    const appended = await s.store.append([
      {
        streamId: tailStreamId(tailId),
        expectedVersion: 1,
        events: [
          { eventId: newEventId(), type: 'TailPaintedPurple', data: { tailId, shade: 'dark' } },
          { eventId: deactivationId, type: 'TailDeactivated', data: { ...base, eventId: deactivationId } },
        ],
      },
    ]);
    await projection.waitFor(appended.checkpoint, 5_000);
    expect(await readModel.getByMappedId(c.domain, 'client-a', 'F-1')).toMatchObject({ status: 'inactive', version: 3 });
  });

  it('projects into a tails table whose key the migrations moved to (domain, tail_id)', async () => {
    // The tails table as earlier versions created it: key on tail_id, a second index on (domain, tail_id).
    const old = await migratedSchema(s.pool, [], 'rmp_old');
    const projected = new TailsProjection(s.pool, s.store, { schema: old.schema, name: 'old-layout' });
    try {
      await s.pool.query(`
        create table "${old.schema}".rm_tails (
          tail_id bigint primary key, domain text not null, tail_number text not null, tail_number_key text not null,
          registration_number text, icao_type_name text, vendor_type_name text, country_code text, passenger_seating int,
          status text not null check (status in ('active', 'inactive')), version int not null,
          created_at timestamptz not null, updated_at timestamptz not null);
        create index rm_tails_domain_tail_id_idx on "${old.schema}".rm_tails (domain, tail_id)`);
      await runMigrations(s.pool, [TAIL_SYNC_MIGRATIONS], { schema: old.schema, logger: { log: () => undefined, warn: () => undefined, error: () => undefined } });
      const { rows } = await s.pool.query<{ def: string }>(
        `select indexdef as def from pg_indexes where schemaname = $1 and tablename = 'rm_tails' order by indexname`,
        [old.schema],
      );
      expect(rows.map((r) => r.def.replace(/^.* USING /, ''))).toEqual(['btree (domain, tail_number_key)', 'btree (domain, tail_id)']);
      // Creates, and a later change of an existing row (looked up by its key), land in the moved table.
      const c = ctx(s.unique('moved'), 'client-a');
      const created = await s.projectedWriter.createOrMapMany(c, [{ mappedId: 'K-1', tailNumber: 'N-K1' }]);
      await s.projectedWriter.deactivate(c, 'K-1');
      await projected.catchUp();
      const view = await new TailsReadModel(s.pool, { schema: old.schema }).getByMappedId(c.domain, 'client-a', 'K-1');
      expect(view).toMatchObject({ tailNumber: 'N-K1', status: 'inactive', version: 2 });
      expect(Number(view?.tailId ?? 0)).toBe(tailIdOf(created.results[0]));
    } finally {
      await projected.stop();
      await old.drop();
    }
  });

  it('stores the checkpoint an EventStoreDB read scanned to, though no tail event came (in-memory server)', async () => {
    const server = await InMemoryEsdbServer.start();
    const esdb = new EsdbEventStore(server.connectionString);
    const other = new TailsProjection(s.pool, esdb, { schema: s.schema, name: `esdb-${s.run}` });
    try {
      await esdb.append([{ streamId: 'tail-1', expectedVersion: 0, events: [{ eventId: newEventId(), type: 'Unknown', data: {} }] }]);
      server.seed('other-service', 300); // another service shares the store
      const head = await esdb.headCheckpoint();
      await other.catchUp();
      // Past the other service's events: the next poll (or a restart) does not scan them again.
      expect(await other.storedCheckpoint()).toEqual(head);
    } finally {
      await other.stop();
      await esdb.close();
      await server.stop();
    }
  });

  it('rebuild() gives the same rows', async () => {
    // Enough tails that the rebuild reads several batches (2,000 events each).
    const inputs = Array.from({ length: 1000 }, (_, i) => ({ mappedId: `R-${i}`, tailNumber: `REB${i}`, registrationNumber: `R${i}`, countryCode: 'FR', passengerSeating: i % 200 }));
    for (let k = 0; k < 2; k++) await s.projectedWriter.createOrMapMany(ctx(s.unique('d'), 'client-a'), inputs);
    await projection.catchUp();
    const before = await snapshot();
    expect(before.tails.length).toBeGreaterThan(3000);
    // Damage the read model: rebuild must not depend on it.
    await s.pool.query(`update ${tables().tails} set status = 'inactive', tail_number = 'garbage' where tail_id in (select tail_id from ${tables().tails} limit 5)`);
    await s.pool.query(`delete from ${tables().mappings} where tail_id in (select tail_id from ${tables().tails} limit 5)`);
    const started = Date.now();
    const stats = await projection.rebuild();
    console.log(`[rm] rebuild of ${before.tails.length} tails (${stats.events} events): ${Date.now() - started} ms`);
    expect(await snapshot()).toEqual(before);
    expect(await projection.storedCheckpoint()).toEqual(projection.checkpoint);
  });

  it('several copies catching up at once apply every event exactly once', async () => {
    const copies = [1, 2, 3].map(() => new TailsProjection(s.pool, s.store, { schema: s.schema, batchSize: 7 }));
    extra.push(...copies);
    await projection.catchUp();
    const domain = s.unique('d');
    const writes = Array.from({ length: 60 }, (_, i) =>
      s.projectedWriter.createOrMapMany(ctx(domain, 'client-a'), [{ mappedId: `P-${i}`, tailNumber: `P${i}` }]),
    );
    // Catch up repeatedly while the writes go on.
    const catchUps = copies.map(async (c) => {
      let applied = 0;
      for (let k = 0; k < 15; k++) applied += (await c.catchUpWithStats()).tailEvents;
      return applied;
    });
    const results = await Promise.all(writes);
    const applied = (await Promise.all(catchUps)).reduce((a, b) => a + b, 0);
    const finals = await Promise.all(copies.map((c) => c.catchUpWithStats()));
    const total = applied + finals.reduce((a, f) => a + f.tailEvents, 0);
    expect(total).toBe(60);
    for (const [i, r] of results.entries()) {
      await copies[i % 3].waitFor(r.checkpoint as AllCheckpoint, 5000);
      expect((await readModel.getByMappedId(domain, 'client-a', `P-${i}`))?.tailId).toBe(tailIdOf(r.results[0]));
    }
  });

  it('the background loop picks up events written elsewhere', async () => {
    const other = new TailsProjection(s.pool, s.store, { schema: s.schema, pollIntervalMs: 20 });
    extra.push(other);
    other.start();
    const domain = s.unique('d');
    await s.projectedWriter.createOrMapMany(ctx(domain, 'client-a'), [{ mappedId: 'BG', tailNumber: 'BG1' }]);
    const deadline = Date.now() + 5000;
    let view = null;
    while (!view && Date.now() < deadline) {
      view = await readModel.getByMappedId(domain, 'client-a', 'BG');
      if (!view) await new Promise((r) => setTimeout(r, 10));
    }
    expect(view).not.toBeNull();
    await other.stop();
  });
});
