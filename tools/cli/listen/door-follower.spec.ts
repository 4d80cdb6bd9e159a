import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventPageView, PolledEventView } from '@tailsync/contracts';
import { followDoor, type Forwarded } from './door-follower';
import { DoorError } from './event-door';

const event = (id: string, read: number): PolledEventView => ({
  eventId: id, eventName: 'Product.RiskAssessmentExecuted', occurredAt: '2026-01-01T00:00:00Z',
  payload: `{"eventId":"${id}"}`, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(read) },
});

/** A door of two pages ([a, b] then [c]) that counts its reads and stamps them into the headers, so a page read again is seen. */
function fakeDoor(failFirst = false) {
  const calls: (string | undefined)[] = [];
  return {
    calls,
    page: async (after: string | undefined): Promise<EventPageView> => {
      calls.push(after);
      if (failFirst && calls.length === 1) throw new DoorError(503, 'busy');
      if (after === undefined) return { items: [event('a', calls.length), event('b', calls.length)], iterator: 'p1', done: false };
      if (after === 'p1') return { items: [event('c', calls.length)], iterator: 'p2', done: true };
      return { items: [], iterator: after, done: true };
    },
  };
}

/** A local receiver answering each request with the next status of `statuses` (then 200). */
async function receiver(statuses: number[]): Promise<{ url: string; got: { id: string; timestamp: string; body: string }[]; server: Server }> {
  const got: { id: string; timestamp: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), body });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

describe('followDoor', () => {
  const servers: Server[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))));

  it('forwards each event in order with its body and headers, and stops when caught up with --once', async () => {
    const r = await receiver([]);
    servers.push(r.server);
    const door = fakeDoor();
    const seen: Forwarded[] = [];
    const last = await followDoor({ door, forwardTo: r.url, once: true, onForwarded: (f) => seen.push(f) });
    expect(r.got).toEqual([{ id: 'a', timestamp: '1', body: '{"eventId":"a"}' }, { id: 'b', timestamp: '1', body: '{"eventId":"b"}' }, { id: 'c', timestamp: '2', body: '{"eventId":"c"}' }]);
    expect(seen.map((f) => [f.event.eventId, f.status, f.outcome])).toEqual([['a', 200, 'delivered'], ['b', 200, 'delivered'], ['c', 200, 'delivered']]);
    expect(last).toBe('p2');
  });

  it('sends an event the receiver failed again, freshly signed, without sending the ones it took; a 4xx is passed', async () => {
    const r = await receiver([200, 503, 400]);
    servers.push(r.server);
    const door = fakeDoor(true);
    const pauses: string[] = [];
    await followDoor({ door, forwardTo: r.url, once: true, onPause: (reason) => pauses.push(reason) });
    // Read 1 failed (503 from the door); read 2: a taken, b refused with 503; read 3 (fresh headers): b again, 400, passed.
    expect(r.got.map((g) => `${g.id}@${g.timestamp}`)).toEqual(['a@2', 'b@2', 'b@3', 'c@4']);
    expect(door.calls).toEqual([undefined, undefined, undefined, 'p1']);
    expect(pauses).toEqual(['busy', 'the receiver did not take an event']);
  }, 15_000);

  it('stops at once on a refusal of the door itself (a bad iterator, no subscription)', async () => {
    const door = { page: async () => { throw new DoorError(404, 'no subscription'); } };
    await expect(followDoor({ door, forwardTo: 'http://127.0.0.1:9/hook', once: true })).rejects.toThrow('no subscription');
  });
});
