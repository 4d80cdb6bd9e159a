/**
 * Reads of one tail (`GET /Tails/{mappedId}`) that arrive together for one caller share one call
 * to tail-sync (`GetTails`) and one statement there, and creates of one tail (`PUT /Tails`) one
 * `CreateOrMap`; each is answered as if it were alone, and never with another caller's data.
 * Checked through the whole stack.
 */
import { api, freshDomain, newServiceAccount, type TestAccount } from './support/accounts';
import { killSharedApp, managementUrl, replaceSharedApp } from './support/test-stack';

const putTail = (account: TestAccount, tailId: string, tailNumber: string) => api(account, 'PUT', '/Tails', { tailId, tailNumber });

/** The gateway's count of single-tail reads sent to tail-sync, and of the calls that carried them. */
async function readCounts(): Promise<{ reads: number; calls: number }> {
  const text = await (await fetch(`${managementUrl()}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { reads: value('tailsync_gateway_tail_reads_total'), calls: value('tailsync_gateway_tail_read_calls_total') };
}

describe('reads of one tail, arriving together', () => {
  it('are answered each with its own tail or its own 404, sharing calls to tail-sync', async () => {
    const account = await newServiceAccount();
    const ids = Array.from({ length: 30 }, (_, i) => `batched-${i}`);
    for (const id of ids) expect((await putTail(account, id, `NB${ids.indexOf(id)}`)).status).toBe(201);
    const before = await readCounts();
    // Every fifth read asks for a tail there is not.
    const asked = Array.from({ length: 60 }, (_, i) => (i % 5 === 4 ? `missing-${i}` : ids[i % ids.length]));
    const answers = await Promise.all(asked.map((id) => api(account, 'GET', `/Tails/${id}`)));
    answers.forEach((answer, i) => {
      const id = asked[i];
      if (id.startsWith('missing')) {
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ status: 404, isValid: false });
      } else {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ mappedId: id, tailNumber: `NB${ids.indexOf(id)}`, mappings: [{ source: account.clientId, mappedId: id }] });
      }
    });
    const after = await readCounts();
    expect(after.reads - before.reads).toBeGreaterThanOrEqual(asked.length);
    // Calls carried several reads each: fewer calls than reads, by more than other tests' single reads could explain.
    expect(after.reads - before.reads - (after.calls - before.calls)).toBeGreaterThanOrEqual(5);
  });

  it('never show one domain another\'s tail: two domains reading the same Mapped IDs at once each get their own', async () => {
    const [acme, globex] = await Promise.all([newServiceAccount(freshDomain('acme')), newServiceAccount(freshDomain('globex'))]);
    const ids = Array.from({ length: 10 }, (_, i) => `shared-${i}`);
    for (const id of ids) {
      expect((await putTail(acme, id, `NA${ids.indexOf(id)}`)).status).toBe(201);
      expect((await putTail(globex, id, `NG${ids.indexOf(id)}`)).status).toBe(201);
    }
    // A Mapped ID only acme has: globex must get 404 for it, even read alongside acme's.
    expect((await putTail(acme, 'acme-only', 'NAONLY')).status).toBe(201);
    const asked = Array.from({ length: 60 }, (_, i) => ({ account: i % 2 === 0 ? acme : globex, id: i % 6 === 5 ? 'acme-only' : ids[i % ids.length] }));
    const answers = await Promise.all(asked.map(({ account, id }) => api(account, 'GET', `/Tails/${id}`)));
    answers.forEach((answer, i) => {
      const { account, id } = asked[i];
      if (id === 'acme-only') {
        expect(answer.status).toBe(account === acme ? 200 : 404);
        return;
      }
      expect(answer.status).toBe(200);
      const prefix = account === acme ? 'NA' : 'NG';
      expect(answer.body).toMatchObject({ mappedId: id, tailNumber: `${prefix}${ids.indexOf(id)}`, mappings: [{ source: account.clientId, mappedId: id }] });
    });
  });

  it('reflect a command answered before they started, though read together with others', async () => {
    const account = await newServiceAccount();
    const ids = Array.from({ length: 20 }, (_, i) => `changed-${i}`);
    for (const id of ids) expect((await putTail(account, id, `NC${ids.indexOf(id)}`)).status).toBe(201);
    for (const round of [1, 2, 3]) {
      const changed = ids[round];
      expect((await api(account, 'POST', '/Tails/ChangeTailNumber', { tailId: changed, newTailNumber: `NR${round}` })).status).toBe(200);
      const answers = await Promise.all(ids.map((id) => api(account, 'GET', `/Tails/${id}`)));
      expect(answers[round].body).toMatchObject({ mappedId: changed, tailNumber: `NR${round}` });
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
  });
});

describe('creates of one tail, arriving together', () => {
  it('are answered each its own outcome: N identical ones create one tail, a refused one its own 400', async () => {
    const account = await newServiceAccount();
    expect((await putTail(account, 'held', 'NHELD')).status).toBe(201);
    const submitted = [
      ...Array.from({ length: 20 }, (_, i) => ({ tailId: `together-${i}`, tailNumber: `NT${i}` })),
      ...Array.from({ length: 5 }, () => ({ tailId: 'same', tailNumber: 'NSAME' })),
      // The caller already maps the tail numbered NHELD under another Mapped ID.
      { tailId: 'held-again', tailNumber: 'NHELD' },
    ];
    const answers = await Promise.all(submitted.map(({ tailId, tailNumber }) => putTail(account, tailId, tailNumber)));
    answers.slice(0, 20).forEach((answer, i) => {
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ operationId: `together-${i}`, wasCreated: true });
    });
    const same = answers.slice(20, 25);
    expect(same.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(same.map((answer) => answer.body.tailId)).size).toBe(1);
    expect(answers[25].status).toBe(400);
    expect(answers[25].body.fieldErrors.tailId).toHaveLength(1);
    const views = await Promise.all(submitted.slice(0, 20).map(({ tailId }) => api(account, 'GET', `/Tails/${tailId}`)));
    views.forEach((view, i) => expect(view.body).toMatchObject({ tailId: answers[i].body.tailId, tailNumber: `NT${i}` }));
  });
});

describe('reads of one tail arriving together while the tail-sync copy is killed', () => {
  it('are each answered with its own tail or a 503, never a 500 and never past the budget; answered again once a copy is back', async () => {
    const account = await newServiceAccount();
    const ids = Array.from({ length: 20 }, (_, i) => `kept-${i}`);
    for (const id of ids) expect((await putTail(account, id, `NK${ids.indexOf(id)}`)).status).toBe(201);
    const answers: { id: string; status: number; body: any; ms: number }[] = [];
    const reading = (async () => {
      for (const until = Date.now() + 3_000; Date.now() < until; ) {
        const round = ids.map(async (id) => {
          const started = Date.now();
          const answer = await api(account, 'GET', `/Tails/${id}`);
          answers.push({ id, status: answer.status, body: answer.body, ms: Date.now() - started });
        });
        await Promise.all(round);
      }
    })();
    await new Promise((r) => setTimeout(r, 1_000));
    // The stack's only tail-sync copy: the calls it holds, and those that wait for a copy, end at their deadline.
    killSharedApp('tail-sync');
    await reading;
    await replaceSharedApp('tail-sync');
    expect(answers.filter(({ status }) => status === 200).length).toBeGreaterThan(0);
    expect(answers.filter(({ status }) => status === 503).length).toBeGreaterThan(0);
    for (const { id, status, body, ms } of answers) {
      expect([200, 503]).toContain(status);
      if (status === 200) expect(body).toMatchObject({ mappedId: id, tailNumber: `NK${ids.indexOf(id)}` });
      // The e2e stack's budget (RPC_TIMEOUT_MS) is 8 s.
      expect(ms).toBeLessThan(9_000);
    }
    const again = await Promise.all(ids.map((id) => api(account, 'GET', `/Tails/${id}`)));
    again.forEach((answer, i) => expect(answer.body).toMatchObject({ mappedId: ids[i], tailNumber: `NK${i}` }));
  }, 90_000);
});
