import { TailEventMessage, TOPICS } from '@tailsync/contracts';
import { api, newServiceAccount, TestAccount } from './support/accounts';
import { collect } from './support/kafka';
import { E2E_GRPC_PORTS, killSharedApp, replaceSharedApp, startApp, waitForHttp } from './support/test-stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function allTails(a: TestAccount): Promise<{ tailId: number; tailNumber: string; mappedId: string }[]> {
  const out: { tailId: number; tailNumber: string; mappedId: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { items: never[]; nextCursor: string | null } } = await api(a, 'GET', `/Tails?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return out;
}

describe('tail-sync crashes', () => {
  it('killed with SIGKILL in the middle of a bulk call: after a restart the same bulk leaves every tail exactly once, every event on Kafka', async () => {
    const a = await newServiceAccount();
    const tails = Array.from({ length: 1000 }, (_, i) => ({ tailId: `crash-${i}`, tailNumber: `NC${i}` }));
    const first = api(a, 'PUT', '/Tails/Bulk', { tails });
    await sleep(120);
    killSharedApp('tail-sync');
    const firstAnswer = await first;
    // Either it finished before the kill (200) or the gateway gave up in time (503); never a hang or a 500.
    expect([200, 503]).toContain(firstAnswer.status);

    await replaceSharedApp('tail-sync');
    const again = await api(a, 'PUT', '/Tails/Bulk', { tails });
    expect(again.status).toBe(200);
    expect(again.body.operations.every((o: { isValid: boolean }) => o.isValid)).toBe(true);

    const stored = await allTails(a);
    expect(stored).toHaveLength(1000);
    expect(new Set(stored.map((t) => t.tailNumber)).size).toBe(1000);
    expect(new Set(stored.map((t) => t.mappedId)).size).toBe(1000);

    const events = await collect<TailEventMessage>(
      TOPICS.tailEvents,
      (ms) => new Set(ms.map((m) => m.value.eventId)).size >= 1000,
      60_000,
      (m) => m.value.domain === a.domain,
    );
    const created = new Map(events.filter((m) => m.value.type === 'TailCreated').map((m) => [m.value.eventId, m.value]));
    expect(created.size).toBe(1000);
    expect(new Set([...created.values()].map((e) => e.tailId))).toEqual(new Set(stored.map((t) => t.tailId)));
  });

  it('with two copies running, killing one under load loses no accepted command; late requests get 503, never a hang', async () => {
    const b = startApp('tail-sync', 'tail-sync-second', { TAIL_SYNC_HTTP_PORT: '13011', TAIL_SYNC_GRPC_PORT: String(E2E_GRPC_PORTS['tail-sync'][1]) });
    try {
      await waitForHttp('http://127.0.0.1:13011/health/ready', 60_000, [b]);
      await sleep(3000); // the gateway reconnects to the second address within its 2 s reconnect backoff
      const accounts = await Promise.all(Array.from({ length: 16 }, () => newServiceAccount()));
      const outcomes: { account: TestAccount; mappedId: string; status: number; ms: number; startedAt: number }[] = [];
      let killedAt = Number.POSITIVE_INFINITY;
      let n = 0;
      const started = Date.now();
      // Calls balance round robin over both copies until the kill, then go to the survivor.
      const worker = async (account: TestAccount) => {
        while (Date.now() - started < 16_000) {
          const mappedId = `load-${n++}`;
          const t0 = Date.now();
          const res = await api(account, 'PUT', '/Tails', { tailId: mappedId, tailNumber: `NL-${mappedId}` });
          outcomes.push({ account, mappedId, status: res.status, ms: Date.now() - t0, startedAt: t0 });
        }
      };
      const load = Promise.all(accounts.map(worker));
      await sleep(1500);
      killSharedApp('tail-sync');
      killedAt = Date.now();
      await load;

      const statuses = new Set(outcomes.map((o) => o.status));
      // A command in flight on the killed copy is not retried (it may have run): the client gets 503
      // and may send it again; anything else is 201.
      expect([...statuses].filter((s) => ![201, 503].includes(s))).toEqual([]);
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(8000 + 3000);
      const accepted = outcomes.filter((o) => o.status === 200 || o.status === 201);
      // The surviving copy keeps serving: most calls after the kill are accepted.
      const afterKill = outcomes.filter((o) => o.startedAt > killedAt + 500);
      expect(afterKill.filter((o) => o.status === 201).length).toBeGreaterThan(afterKill.length * 0.9);
      for (const o of accepted) {
        const res = await api(o.account, 'GET', `/Tails/${o.mappedId}`);
        expect({ mappedId: o.mappedId, status: res.status }).toEqual({ mappedId: o.mappedId, status: 200 });
      }
      // No tail twice: each domain's tails hold distinct numbers and Mapped IDs, one per PUT at most.
      for (const account of accounts) {
        const stored = await allTails(account);
        expect(new Set(stored.map((t) => t.tailNumber)).size).toBe(stored.length);
        expect(new Set(stored.map((t) => t.mappedId)).size).toBe(stored.length);
        expect(stored.length).toBeLessThanOrEqual(outcomes.filter((o) => o.account === account).length);
      }
      console.log(
        `[crash] ${outcomes.length} requests, ${accepted.length} accepted, ${outcomes.filter((o) => o.status === 503).length} answered 503, ` +
          `${afterKill.length} after the kill, max ${Math.max(...outcomes.map((o) => o.ms))} ms`,
      );
    } finally {
      await replaceSharedApp('tail-sync');
      await b.stop();
    }
  });
});
