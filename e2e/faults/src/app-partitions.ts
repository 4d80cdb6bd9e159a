/**
 * One copy of each app partitioned while the other copies go on, on the stack of three brokers and
 * two copies of each app that `infrastructure.faults.ts` shares with the broker faults: one copy
 * of every app (the relay's leader among the tail-sync copies, the first of the others) cut off
 * from PostgreSQL for 30 s; the first gateway cut off from every service copy for 30 s; the first
 * copy of each service cut off from every gateway for 30 s. Packets are dropped (no refusal, no reset), as in a real partition. After
 * each heal the cut copies must serve again as the same processes (no restart).
 */
import { cutOff, type NetworkCut } from '@tailsync/tools/testing';
import { type AppCopy, expectHeldUp, FAULT_PORTS, type FaultStack, inState, readAsDown, REQUEST_BUDGET_MS, runFault } from './support';

let stack: FaultStack;

const firstCopies = () => stack.copies.filter((c) => c.index === 0);
const healAll = (cuts: NetworkCut[]) => async () => {
  for (const cut of cuts) await cut.heal();
};

/** The port of the runner's PostgreSQL server the stack's database is on. */
const databasePort = () => Number(new URL(process.env.TAILSYNC_FAULTS_POSTGRES_URL ?? 'postgres://127.0.0.1:24432').port);

/** Every service copy's gRPC port, or the first copies' only. */
const grpcPorts = (copies: AppCopy[]) =>
  copies.filter((c) => c.name !== 'gateway').map((c) => (c.name === 'tail-sync' ? FAULT_PORTS.tailSyncGrpc : FAULT_PORTS.dispatcherGrpc) + 10 * c.index);

/** Every copy ready again, each the process it was before the fault (healed without a restart). */
async function expectEveryCopyBackUnrestarted(pids: Map<AppCopy, number | undefined>): Promise<void> {
  for (const [copy, pid] of pids) {
    expect(`${copy.process.instance} pid ${copy.process.child.pid}`).toBe(`${copy.process.instance} pid ${pid}`);
    const res = await fetch(copy.readyUrl, { signal: AbortSignal.timeout(5_000) });
    expect(`${copy.process.instance} ready: ${res.status}`).toBe(`${copy.process.instance} ready: 200`);
  }
}

const pidsNow = () => new Map(stack.copies.map((c) => [c, c.process.child.pid]));

/** Tail events a tail-sync copy's relay has published (its `/metrics`). */
async function publishedBy(copy: AppCopy): Promise<number> {
  const text = await (await fetch(copy.readyUrl.replace('/health/ready', '/metrics'), { signal: AbortSignal.timeout(5_000) })).text();
  const lines = text.split('\n').filter((line) => line.startsWith('tailsync_tail_events_published_total'));
  return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** The tail-sync copy leading the relay now: the one whose relay publishes the load's tails. */
async function relayLeader(): Promise<AppCopy> {
  const copies = stack.copies.filter((c) => c.name === 'tail-sync');
  const before = await Promise.all(copies.map(publishedBy));
  await new Promise((r) => setTimeout(r, 2_000));
  const after = await Promise.all(copies.map(publishedBy));
  return copies.find((_, i) => after[i] > before[i]) ?? copies[0];
}

/** The partition faults, as tests on the stack `stackOf` gives (started by the file that runs them). */
export function appPartitionFaults(stackOf: () => FaultStack): void {
  beforeAll(() => {
    stack = stackOf();
  });

  it('one copy of each app cut off from PostgreSQL for 30 s: the other copies take its work over, nothing is lost or stuck', async () => {
    const pids = pidsNow();
    let relayedByOthersDuringCut = 0;
    const outcome = await runFault(stack, {
      name: 'apps: one copy of each app cut off from PostgreSQL for 30 s',
      holdMs: 30_000,
      inject: async () => {
        // The relay's leader among the tail-sync copies, so that its leadership must move.
        const leader = await relayLeader();
        const others = stack.copies.filter((c) => c.name === 'tail-sync' && c !== leader);
        const cuts = [leader, ...firstCopies().filter((c) => c.name !== 'tail-sync')].map((c) => cutOff(c.process.child.pid!, `${c.name}-from-postgres`, [databasePort()]));
        const before = await Promise.all(others.map(publishedBy));
        return async () => {
          const after = await Promise.all(others.map(publishedBy));
          relayedByOthersDuringCut = after.reduce((sum, n, i) => sum + n - before[i], 0);
          await healAll(cuts)();
        };
      },
    });
    expectHeldUp(outcome);
    // What Prometheus shows meanwhile: the 503s of the cut copies are over 1 % of the calls; the
    // cut copies still answer their scrapes (their readiness says what they lack), none reads as down.
    expect(inState(outcome.alerts, 'pending')).toContain('TailsyncApiErrors (tailsync-gateway)');
    expect(readAsDown(outcome.alerts)).toEqual([]);
    // The other copies go on: the calls the cut tail-sync is sent answer 503 in time, the rest 201
    // (before the server ended the cut copy's silent sessions, its projection lock held every write),
    // and another copy took the relay's leadership over while the leader was cut off.
    const { during } = outcome.availability;
    expect(during.byStatus['201'] ?? 0).toBeGreaterThanOrEqual(during.calls / 4);
    expect(relayedByOthersDuringCut).toBeGreaterThan(0);
    // Healed, the cut copies serve at once: no call after the heal waits out the budget for a
    // connection (their pools gave up on the cut connections, silent-server-socket.ts).
    expect(outcome.availability.after.maxMs).toBeLessThan(REQUEST_BUDGET_MS);
    await expectEveryCopyBackUnrestarted(pids);
  });

  it('the first gateway cut off from every service copy for 30 s: it answers 503 problems in time, the other goes on', async () => {
    const pids = pidsNow();
    const gateway = firstCopies().find((c) => c.name === 'gateway')!;
    const outcome = await runFault(stack, {
      name: 'apps: the first gateway cut off from the services for 30 s',
      holdMs: 30_000,
      inject: async () => healAll([cutOff(gateway.process.child.pid!, 'gateway-from-services', grpcPorts(stack.copies))]),
    });
    expectHeldUp(outcome);
    expect(inState(outcome.alerts, 'pending')).toContain('TailsyncApiErrors (tailsync-gateway)');
    await expectEveryCopyBackUnrestarted(pids);
  });

  it('the first copy of each service cut off from every gateway for 30 s: the gateways go on over the other copies', async () => {
    const pids = pidsNow();
    const outcome = await runFault(stack, {
      name: 'apps: the first copy of each service cut off from the gateways for 30 s',
      holdMs: 30_000,
      // Each gateway loses the first service copies: the same partition as the services losing the gateways.
      inject: async () =>
        healAll(stack.copies.filter((c) => c.name === 'gateway').map((g) => cutOff(g.process.child.pid!, `gateway-${g.index + 1}-from-first-services`, grpcPorts(firstCopies())))),
    });
    expectHeldUp(outcome);
    await expectEveryCopyBackUnrestarted(pids);
  });
}
