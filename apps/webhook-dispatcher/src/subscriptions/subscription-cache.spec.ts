import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { eventually, infraEnv, isolatedDatabase, newSharedSecret, subscriptionInput, uniqueDomain } from '../testing/harness';
import { SubscriptionCache } from './subscription-cache';
import { SubscriptionStore } from './subscription.store';

describe('SubscriptionCache: the subscriptions deliveries go to, kept while change notices arrive (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  /** Writes as another dispatcher copy would: its own connections. */
  let otherCopy: SubscriptionStore;
  let store: SubscriptionStore;
  let cache: SubscriptionCache;
  let reads: jest.SpyInstance;
  const application = `spec-subscription-notices-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    db = await isolatedDatabase('subscription_cache');
    otherCopy = new SubscriptionStore(db.pool);
    store = new SubscriptionStore(db.pool);
    reads = jest.spyOn(store, 'getMany');
    const { connectionString, options } = db.pool.options;
    cache = new SubscriptionCache(store, { connectionString, options, application_name: application });
    await cache.start();
  });
  afterAll(async () => {
    await cache.stop();
    await db.drop();
  });
  beforeEach(() => reads.mockClear());

  const save = (domain: string, url = 'http://127.0.0.1:9/a') => otherCopy.put(domain, subscriptionInput(url, newSharedSecret(), domain), 60);
  const urlOf = async (domain: string) => (await cache.getMany([domain])).get(domain)?.url ?? null;
  /** Waits until reading `domains` makes no query (a save's own notice may land after the first read). */
  const answeredFromMemory = (domains: string[]) =>
    eventually(async () => {
      reads.mockClear();
      const found = await cache.getMany(domains);
      return reads.mock.calls.length === 0 && found;
    }, 2000, 5);

  it('answers from memory what it has read, a domain without a subscription too, as the table has it', async () => {
    const [subscribed, none] = [uniqueDomain(), uniqueDomain()];
    await save(subscribed);
    const found = await answeredFromMemory([subscribed, none]);
    expect([...found.keys()]).toEqual([subscribed]);
    expect(found).toEqual(await store.getMany([subscribed, none]));
  });

  it('sees a change another copy commits: saved with a new url, disabled, deleted, created', async () => {
    const domain = uniqueDomain();
    await save(domain, 'http://127.0.0.1:9/old');
    expect(await urlOf(domain)).toBe('http://127.0.0.1:9/old');

    await save(domain, 'http://127.0.0.1:9/new');
    await eventually(async () => (await urlOf(domain)) === 'http://127.0.0.1:9/new', 2000, 5);

    await otherCopy.disable(domain, 'gone');
    await eventually(async () => (await cache.getMany([domain])).get(domain)?.status === 'disabled', 2000, 5);

    await otherCopy.delete(domain);
    await eventually(async () => (await urlOf(domain)) === null, 2000, 5);

    await save(domain, 'http://127.0.0.1:9/again');
    await eventually(async () => (await urlOf(domain)) === 'http://127.0.0.1:9/again', 2000, 5);
  });

  it('applies a change committed before a read to that read, however late its notice arrives', async () => {
    // Every byte from PostgreSQL to this cache's notice connection arrives 300 ms late.
    const proxy = await delayingProxy(new URL(infraEnv().DATABASE_URL), 300);
    const { options } = db.pool.options;
    const late = new SubscriptionCache(store, { connectionString: proxy.url, options });
    await late.start();
    try {
      const domain = uniqueDomain();
      await save(domain, 'http://127.0.0.1:9/old');
      expect((await late.getMany([domain])).get(domain)?.url).toBe('http://127.0.0.1:9/old');
      await eventually(async () => {
        reads.mockClear();
        await late.getMany([domain]);
        return reads.mock.calls.length === 0;
      }, 3000, 20);

      await save(domain, 'http://127.0.0.1:9/new'); // committed: the save's response
      expect((await late.getMany([domain])).get(domain)?.url).toBe('http://127.0.0.1:9/new');
      // many reads at once after a change share the wait, and all see it
      await save(domain, 'http://127.0.0.1:9/newer');
      const urls = await Promise.all(Array.from({ length: 20 }, async () => (await late.getMany([domain])).get(domain)?.url));
      expect(new Set(urls)).toEqual(new Set(['http://127.0.0.1:9/newer']));
    } finally {
      await late.stop();
      proxy.close();
    }
  });

  it('keeps a subscription whose health figures move (every recorded attempt moves them)', async () => {
    const domain = uniqueDomain();
    await save(domain);
    await answeredFromMemory([domain]);
    await db.pool.query('update webhook_subscriptions set last_success_at = now(), failed_in_a_row = 0, failing_since = null where domain = $1', [domain]);
    // a notice would be here within milliseconds
    await new Promise((r) => setTimeout(r, 200));
    reads.mockClear();
    await cache.getMany([domain]);
    expect(reads).not.toHaveBeenCalled();
  });

  it('when its notice connection is lost, forgets everything, so a change made before it listens again is not missed', async () => {
    const domain = uniqueDomain();
    await save(domain, 'http://127.0.0.1:9/before');
    expect((await answeredFromMemory([domain])).get(domain)?.url).toBe('http://127.0.0.1:9/before');

    // the change lands while the connection is down (reconnecting takes a connect and a LISTEN)
    await db.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${application}';
       update webhook_subscriptions set url = 'http://127.0.0.1:9/meanwhile' where domain = '${domain}'`,
    );
    await eventually(async () => (await urlOf(domain)) === 'http://127.0.0.1:9/meanwhile', 3000, 5);

    // listening again, it keeps what it reads and sees the next change
    await answeredFromMemory([domain]);
    await save(domain, 'http://127.0.0.1:9/after');
    await eventually(async () => (await urlOf(domain)) === 'http://127.0.0.1:9/after', 2000, 5);
  });

  it('finds a notice connection that went silent (no reset) by its check, and stops trusting what it kept', async () => {
    const proxy = await frozenableProxy(new URL(infraEnv().DATABASE_URL));
    const { options } = db.pool.options;
    const silent = new SubscriptionCache(store, { connectionString: proxy.url, options }, { checkEveryMs: 300 });
    await silent.start();
    try {
      // a domain without a subscription, kept as such (no notice of it is on its way)
      const domain = uniqueDomain();
      expect((await silent.getMany([domain])).size).toBe(0);
      reads.mockClear();
      expect((await silent.getMany([domain])).size).toBe(0);
      expect(reads).not.toHaveBeenCalled();

      proxy.freeze(); // the notice connection stays open but nothing passes any more
      await save(domain, 'http://127.0.0.1:9/unnoticed');
      await eventually(async () => (await silent.getMany([domain])).get(domain)?.url === 'http://127.0.0.1:9/unnoticed', 3000, 20);
      // reconnected (a new connection passes), it keeps what it reads again
      await eventually(async () => {
        reads.mockClear();
        await silent.getMany([domain]);
        return reads.mock.calls.length === 0;
      }, 3000, 20);
    } finally {
      await silent.stop();
      proxy.close();
    }
  });
});

/** A TCP proxy to PostgreSQL whose connections can be frozen: open, but passing nothing, as over a cut network. */
async function frozenableProxy(target: URL): Promise<{ url: string; freeze: () => void; close: () => void }> {
  const pairs: [Socket, Socket][] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    pairs.push([client, upstream]);
  });
  const url = await listeningAs(server, target);
  return {
    url,
    freeze: () => {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      server.close();
    },
  };
}

/** A TCP proxy to PostgreSQL that hands the client every byte from the server `delayMs` late, in order. */
async function delayingProxy(target: URL, delayMs: number): Promise<{ url: string; close: () => void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => setTimeout(() => client.writable && client.write(chunk), delayMs));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), delayMs));
    sockets.push(client, upstream);
  });
  const url = await listeningAs(server, target);
  return {
    url,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Starts the proxy on a free loopback port; the target's URL with that address. */
async function listeningAs(server: Server, target: URL): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return url.toString();
}
