import type { Server, ServerUnaryCall } from '@grpc/grpc-js';
import { context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { freePort } from '@tailsync/service-kit/testing';
import { generateKeyPairSync } from 'node:crypto';
import { NotFound, ServiceUnavailable } from '../../problems/domain/problem';
import { type CreateOrMapHandler, sleep, startCopy } from '../../testing/tail-sync-copies';
import type { BudgetedCaller } from './service-channel';
import { CallerBatches } from './caller-batches';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE, TailSyncClient } from './tail-sync.client';

type Call = ServerUnaryCall<{ mappedId?: string; tails?: { mappedId: string }[] }, unknown>;

/** What a copy was asked: the method, the domain of the signed caller it carried, and the Mapped IDs. */
interface Asked {
  method: string;
  domain: string;
  mappedIds: string[];
}

const domainOf = (call: Call) => JSON.parse(Buffer.from(String(call.metadata.get('tailsync-caller')[0]).split('.')[1], 'base64url').toString()).dom as string;

/** A tail's view as a copy answers it: its number names the domain that asked, so a read shows whose data it got. */
const viewOf = (domain: string, mappedId: string) => ({
  tailId: 1, mappedId, tailNumber: `${domain}/${mappedId}`, status: 'active', mappings: [], createdAt: '2026-11-29T00:00:00Z', updatedAt: '2026-11-29T00:00:00Z', version: 1,
});
const replyOf = (domain: string, mappedId: string) =>
  mappedId.startsWith('missing')
    ? { problem: { kind: 'NOT_FOUND', title: '', detail: `Tail ${mappedId} was not found.`, fieldErrors: {}, generalErrors: [] } }
    : { tail: viewOf(domain, mappedId) };

/** A copy answering GetTail and GetTails after `delayMs` (or never), recording every call. */
function readingCopy(asked: Asked[], delayMs: number | 'never') {
  const serve = (method: string, mappedIdsOf: (call: Call) => string[], answer: (domain: string, ids: string[]) => object): CreateOrMapHandler => (raw, reply) => {
    const call = raw as Call;
    const domain = domainOf(call);
    const mappedIds = mappedIdsOf(call);
    asked.push({ method, domain, mappedIds });
    if (delayMs !== 'never') setTimeout(() => reply(null, answer(domain, mappedIds)), delayMs);
  };
  return {
    CreateOrMap: serve('CreateOrMap', (call) => (call.request.tails ?? []).map((t) => t.mappedId), (_domain, ids) => ({
      outcomes: { outcomes: ids.map((id, i) => (id.startsWith('invalid') ? { outcome: 'invalid', tailId: 0, fieldErrors: { tailNumber: { messages: ['Tail number is required.'] } } } : { outcome: 'created', tailId: i + 1, fieldErrors: {} })) },
    })),
    GetTail: serve('GetTail', (call) => [call.request.mappedId ?? ''], (domain, [id]) => replyOf(domain, id)),
    GetTails: serve('GetTails', (call) => (call.request.tails ?? []).map((t) => t.mappedId), (domain, ids) => ({ replies: { replies: ids.map((id) => replyOf(domain, id)) } })),
  };
}

/**
 * Waits until a copy has received `n` calls: the request sent first is then in flight, however
 * long a loaded machine took to send it, and requests made now wait for it.
 */
async function received(calls: unknown[], n: number): Promise<void> {
  while (calls.length < n) await sleep(2);
}

const callerOf = (domain: string, budgetMs = 5_000): BudgetedCaller => ({ domain, source: `${domain}-client`, role: 'tenant', requestId: `r-${domain}`, deadline: Date.now() + budgetMs });

describe('TailSyncClient, one caller\'s reads and creates of one tail batched (real gRPC)', () => {
  const signer = new CallerTokenSigner(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  let copy: Server | undefined;
  let client: TailSyncClient | undefined;

  async function start(asked: Asked[], delayMs: number | 'never'): Promise<TailSyncClient> {
    const port = await freePort();
    const { CreateOrMap, ...others } = readingCopy(asked, delayMs);
    copy = await startCopy(port, CreateOrMap, others);
    client = new TailSyncClient(new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${port}` }, signer), { inFlight: 1 });
    return client;
  }

  afterEach(() => {
    client?.close();
    copy?.forceShutdown();
  });

  it('sends a read alone at once as GetTail, and the reads arriving meanwhile as one GetTails, each answered its own (a missing one 404)', async () => {
    const asked: Asked[] = [];
    const tails = await start(asked, 100);
    const alone = tails.get(callerOf('acme'), 'm-0');
    await received(asked, 1);
    const later = ['m-1', 'missing-2', 'm-3'].map((id) => tails.get(callerOf('acme'), id).catch((error: Error) => error));
    await expect(alone).resolves.toMatchObject({ mappedId: 'm-0', tailNumber: 'acme/m-0' });
    const [first, missing, third] = await Promise.all(later);
    expect(first).toMatchObject({ mappedId: 'm-1', tailNumber: 'acme/m-1' });
    expect(missing).toBeInstanceOf(NotFound);
    expect(third).toMatchObject({ mappedId: 'm-3', tailNumber: 'acme/m-3' });
    expect(asked).toEqual([
      { method: 'GetTail', domain: 'acme', mappedIds: ['m-0'] },
      { method: 'GetTails', domain: 'acme', mappedIds: ['m-1', 'missing-2', 'm-3'] },
    ]);
  });

  it('never puts two domains\' reads in one call: each call carries one caller, and each read gets its own domain\'s tail', async () => {
    const asked: Asked[] = [];
    const tails = await start(asked, 30);
    const reads = Array.from({ length: 40 }, (_, i) => {
      const domain = i % 2 === 0 ? 'acme' : 'globex';
      return tails.get(callerOf(domain), `m-${i % 10}`).then((view) => ({ domain, view }));
    });
    for (const { domain, view } of await Promise.all(reads)) expect(view.tailNumber).toBe(`${domain}/${view.mappedId}`);
    for (const call of asked) expect(call.mappedIds.length).toBeGreaterThan(0);
    expect(asked.filter((call) => call.method === 'GetTails').length).toBeGreaterThan(0);
    expect(asked.flatMap((call) => call.mappedIds)).toHaveLength(40);
  });

  it('answers every read of a call the service does not answer with a 503 by the earliest deadline among them', async () => {
    const asked: Asked[] = [];
    const tails = await start(asked, 'never');
    const started = Date.now();
    const alone = tails.get(callerOf('acme', 400), 'm-0').catch((error: Error) => error);
    await received(asked, 1);
    const settled = (read: Promise<unknown>) => read.then(() => ({ error: undefined, at: Date.now() - started }), (error: Error) => ({ error, at: Date.now() - started }));
    // The earlier deadline leaves the batched call a second past the first call's end, so a loaded
    // machine still sends it; the later one is far enough out that ending by it would show.
    const batched = [tails.get(callerOf('acme', 1_500), 'm-1'), tails.get(callerOf('acme', 8_000), 'm-2')].map(settled);
    expect(await alone).toBeInstanceOf(ServiceUnavailable);
    const answers = await Promise.all(batched);
    for (const { error, at } of answers) {
      expect(error).toBeInstanceOf(ServiceUnavailable);
      // Sent once the first call gave up (~400 ms), it ends by the earlier of the two deadlines (~1,520 ms).
      expect(at).toBeLessThan(4_000);
    }
    expect(asked.map((call) => call.method)).toEqual(['GetTail', 'GetTails']);
  });

  it('sends creates of one caller that arrive while one is in flight as one CreateOrMap, each answered its own outcome', async () => {
    const asked: Asked[] = [];
    const tails = await start(asked, 100);
    const submission = (mappedId: string) => ({ mappedId, tailNumber: 'N1' });
    const alone = tails.createOrMapOne(callerOf('acme'), submission('c-0'));
    await received(asked, 1);
    const later = ['c-1', 'invalid-2', 'c-3'].map((id) => tails.createOrMapOne(callerOf('acme'), submission(id)));
    const other = tails.createOrMapOne(callerOf('globex'), submission('g-0'));
    await expect(alone).resolves.toMatchObject({ outcome: 'created', tailId: 1 });
    const outcomes = await Promise.all(later);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'invalid', 'created']);
    expect(outcomes.map((o) => (o.outcome === 'invalid' ? 0 : o.tailId))).toEqual([1, 0, 3]);
    await expect(other).resolves.toMatchObject({ outcome: 'created' });
    expect(asked).toEqual([
      { method: 'CreateOrMap', domain: 'acme', mappedIds: ['c-0'] },
      { method: 'CreateOrMap', domain: 'globex', mappedIds: ['g-0'] },
      { method: 'CreateOrMap', domain: 'acme', mappedIds: ['c-1', 'invalid-2', 'c-3'] },
    ]);
  });

  it('gives each tail of a shared CreateOrMap its own request\'s traceparent; a call of one request carries it as metadata alone', async () => {
    const traced: { metadata: string | undefined; tails: (string | undefined)[] }[] = [];
    const port = await freePort();
    copy = await startCopy(port, (raw, reply) => {
      const call = raw as ServerUnaryCall<{ tails: { mappedId: string; traceparent?: string }[] }, unknown>;
      traced.push({ metadata: call.metadata.get('traceparent')[0] as string | undefined, tails: call.request.tails.map((t) => t.traceparent) });
      setTimeout(() => reply(null, { outcomes: { outcomes: call.request.tails.map((_, i) => ({ outcome: 'created', tailId: i + 1 })) } }), 100);
    });
    client = new TailSyncClient(new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${port}` }, signer), { inFlight: 1 });
    const traceOf = (n: number) => `00-${String(n).repeat(32)}-${String(n).repeat(16)}-01`;
    const submit = (n: number) => client!.createOrMapOne({ ...callerOf('acme'), traceparent: traceOf(n) }, { mappedId: `t-${n}`, tailNumber: `N${n}` });
    const alone = submit(1);
    await received(traced, 1);
    await Promise.all([alone, submit(2), submit(3)]);
    expect(traced).toEqual([
      { metadata: traceOf(1), tails: [undefined] },
      { metadata: traceOf(2), tails: [traceOf(2), traceOf(3)] },
    ]);
  });
});

describe('CallerBatches, with a context manager as tracing has', () => {
  const REQUEST = createContextKey('request');
  beforeAll(() => context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
  afterAll(() => context.disable());

  it("sends each call in its first request's context, not in that of the call whose end let it go", async () => {
    const sentIn: { request: unknown; items: string[] }[] = [];
    const batches = new CallerBatches<string, string>(async (_caller, items) => {
      sentIn.push({ request: context.active().getValue(REQUEST), items });
      await sleep(50);
      return items;
    }, { inFlight: 1 });
    const asRequest = (name: string) => context.with(context.active().setValue(REQUEST, name), () => batches.submit(callerOf('acme'), name));
    const first = asRequest('a');
    await sleep(10);
    await Promise.all([first, asRequest('b'), asRequest('c')]);
    expect(sentIn).toEqual([
      { request: 'a', items: ['a'] },
      { request: 'b', items: ['b', 'c'] },
    ]);
  });
});
