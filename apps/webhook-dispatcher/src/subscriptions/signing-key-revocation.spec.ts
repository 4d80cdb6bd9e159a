import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallerContext } from '@tailsync/contracts';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { SubscriptionCache } from './subscription-cache';

const EVT = 'Product.RiskAssessmentExecuted';
const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
const kidOf = (authorization: string | undefined) =>
  JSON.parse(Buffer.from(String(authorization).split(' ')[1].split('.')[0], 'base64url').toString()).kid as string;

/** A real receiver that holds each callback `holdMs` before answering 204, noting which key signed it. */
async function slowReceiver(holdMs: number): Promise<{ url: string; kids: string[]; server: Server }> {
  const kids: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      kids.push(kidOf(req.headers.authorization));
      setTimeout(() => res.writeHead(204).end(), holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, kids, server };
}

/** Every callback a copy sends, when it was handed to the network (signed in the same tick) and by which key. */
function watchSends(copy: DispatcherCopy, copyName: string, into: { copy: string; at: number; kid: string }[]): void {
  const send = copy.sender.send.bind(copy.sender);
  copy.sender.send = (request) => {
    into.push({ copy: copyName, at: Date.now(), kid: kidOf(request.headers.Authorization ?? request.headers.authorization) });
    return send(request);
  };
}

describe('revoking a signing key with two dispatcher copies delivering (real PostgreSQL, real receiver)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let copies: DispatcherCopy[];
  let receiver: Awaited<ReturnType<typeof slowReceiver>>;

  beforeAll(async () => {
    db = await isolatedDatabase('key_revocation');
    copies = [await runningDispatcher(db.pool, 'revoke-a'), await runningDispatcher(db.pool, 'revoke-b')];
    // As in the app: each copy keeps the subscriptions (and their keys) in memory, told of changes by PostgreSQL.
    for (const copy of copies) await copy.get(SubscriptionCache).start();
    receiver = await slowReceiver(300);
  });
  afterAll(async () => {
    for (const copy of copies) await copy.get(SubscriptionCache).stop();
    await Promise.all(copies.map(stopDispatcher));
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
    await db.drop();
  });

  it('after "revoke now" through one copy, neither copy signs another callback with the revoked key, not even one queued before', async () => {
    const domain = uniqueDomain();
    // One callback at a time: the copies' other deliveries wait in their queues, read before the revocation.
    const saved = await copies[0].requests.subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519', maxInFlight: 1 } });
    expect(saved).toMatchObject({ ok: true });
    const listed = await copies[0].requests.signingKeys.list({ caller: caller(domain), body: {} });
    if (!listed.ok) throw new Error(JSON.stringify(listed.problem));
    const [revokedKid] = listed.result.items.map((k) => k.kid);

    const sends: { copy: string; at: number; kid: string }[] = [];
    copies.forEach((copy, i) => watchSends(copy, `copy ${i}`, sends));
    const events = Array.from({ length: 16 }, () => randomUUID()).map((eventId) => ({
      domain, eventId, eventName: EVT, body: callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} }),
    }));
    // Half to each copy, as their consumers would hand them over (leased and queued at once).
    await Promise.all(copies.map(async (copy, i) => copy.admission.admit(events.filter((_, k) => k % 2 === i), await copy.subscriptions.getMany([domain]))));
    await eventually(async () => receiver.kids.length >= 2, 30_000, 20);

    const revoked = await copies[0].requests.signingKeys.revoke({ caller: caller(domain), body: { kid: revokedKid } });
    const answeredAt = Date.now();
    if (!revoked.ok) throw new Error(JSON.stringify(revoked.problem));
    const [nextKid] = revoked.result.items.map((k) => k.kid);
    expect(nextKid).not.toBe(revokedKid);

    await eventually(async () => {
      const { rows } = await db.pool.query<{ n: string }>("select count(*) as n from webhook_deliveries where domain = $1 and status = 'delivered'", [domain]);
      return Number(rows[0].n) === events.length;
    }, 60_000, 100);
    const after = sends.filter((s) => s.at > answeredAt);
    // Both copies still had the domain's callbacks to send after the answer, and signed every one with the next key.
    expect(new Set(after.map((s) => s.copy))).toEqual(new Set(['copy 0', 'copy 1']));
    expect(after.filter((s) => s.kid === revokedKid)).toEqual([]);
    expect(after.every((s) => s.kid === nextKid)).toBe(true);
    // And the receiver saw the revoked key before, the next key after.
    expect(receiver.kids.slice(0, 2)).toEqual([revokedKid, revokedKid]);
    expect(receiver.kids.at(-1)).toBe(nextKid);
  }, 120_000);
});
