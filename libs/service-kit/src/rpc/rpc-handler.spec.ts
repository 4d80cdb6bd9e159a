import { handleRpc, isDependencyDown, ProblemError } from './rpc-handler';

const request = (deadline?: number) => ({ caller: { domain: 'd', source: 's', requestId: 'r' }, body: {}, deadline });

describe('handleRpc', () => {
  it('answers the handler\'s result', async () => {
    expect(await handleRpc(request(), async () => 42)).toEqual({ ok: true, result: 42 });
  });

  it('drops a request whose caller already gave up', async () => {
    let ran = false;
    const reply = await handleRpc(request(Date.now() - 1), async () => {
      ran = true;
    });
    expect(ran).toBe(false);
    expect(reply).toMatchObject({ ok: false, problem: { kind: 'unavailable' } });
  });

  it('turns a ProblemError into a problem reply', async () => {
    const reply = await handleRpc(request(), async () => {
      throw new ProblemError({ kind: 'not-found', detail: 'gone' });
    });
    expect(reply).toEqual({ ok: false, problem: { kind: 'not-found', detail: 'gone' } });
  });

  it('answers unavailable when a dependency is down, and rethrows real bugs', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(await handleRpc(request(), async () => Promise.reject(down))).toMatchObject({ ok: false, problem: { kind: 'unavailable' } });
    await expect(handleRpc(request(), async () => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
  });

  it('recognises PostgreSQL connection and shutdown errors', () => {
    expect(isDependencyDown({ code: '57P01', message: 'terminating connection due to administrator command' })).toBe(true);
    expect(isDependencyDown({ code: '08006', message: 'connection failure' })).toBe(true);
    expect(isDependencyDown({ code: '23505', message: 'duplicate key' })).toBe(false);
    expect(isDependencyDown(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDependencyDown(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('recognises a standby reached before its promotion: it refuses writes', () => {
    expect(isDependencyDown({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' })).toBe(true);
    expect(isDependencyDown({ code: '25006', message: 'cannot execute LISTEN during recovery' })).toBe(true);
  });
});
