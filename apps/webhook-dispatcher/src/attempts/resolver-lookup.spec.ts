import { createSocket, type Socket } from 'node:dgram';
import * as dns from 'node:dns';
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import { resolverAll, resolverLookup } from './resolver-lookup';

const lookupOnce = (lookup: typeof dns.lookup, host: string, options: dns.LookupOptions) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
    (lookup as unknown as (h: string, o: dns.LookupOptions, cb: (e: NodeJS.ErrnoException | null, a: unknown, f?: number) => void) => void)(host, options, (error, address, family) =>
      resolve({ error, address, family }),
    ),
  );

describe('resolving names off the shared thread pool, with a timeout', () => {
  let silent: Socket;
  let server: string;

  beforeAll(async () => {
    // A real DNS server address that takes every query and never answers.
    silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    server = `127.0.0.1:${silent.address().port}`;
  });
  afterAll(() => silent.close());

  it('gives up on a DNS server that never answers, and leaves libuv threads to everyone else meanwhile', async () => {
    const resolver = new dns.promises.Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([server]);
    const lookup = resolverLookup(resolverAll(resolver));
    const started = Date.now();
    // Eight stalled names: with dns.lookup, four would hold every libuv thread until they gave up.
    const stalled = Array.from({ length: 8 }, (_, i) => lookupOnce(lookup, `stalled-${i}.example`, { all: true }));
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 4 }, () => promisify(pbkdf2)('x', 'salt', 1000, 32, 'sha256')));
    expect(Date.now() - t0).toBeLessThan(250);
    for (const result of await Promise.all(stalled)) expect(result.error?.code).toBe('ETIMEOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('answers localhost with loopback without asking DNS, and asks the hosts file for a name DNS does not know', async () => {
    const unreachable = new dns.promises.Resolver({ timeout: 300, tries: 1 });
    unreachable.setServers([server]);
    expect((await resolverAll(unreachable)('api.localhost')).map((a) => a.address)).toEqual(['127.0.0.1', '::1']);
    const nxdomain = { resolve4: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })), resolve6: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENODATA' })) };
    const hostsFile = jest.fn(async () => [{ address: '10.0.0.9', family: 4 }]);
    expect(await resolverAll(nxdomain as unknown as dns.promises.Resolver, hostsFile)('printer.lan')).toEqual([{ address: '10.0.0.9', family: 4 }]);
    expect(hostsFile).toHaveBeenCalledWith('printer.lan');
  });

  it('answers in dns.lookup shapes: one address of the family asked, or all', async () => {
    const lookup = resolverLookup(async () => [{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
    expect(await lookupOnce(lookup, 'x.example', {})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await lookupOnce(lookup, 'x.example', { family: 6 })).toEqual({ error: null, address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 });
    expect((await lookupOnce(lookup, 'x.example', { all: true })).address).toHaveLength(2);
    const v4only = resolverLookup(async () => [{ address: '93.184.215.14', family: 4 }]);
    expect((await lookupOnce(v4only, 'x.example', { family: 6 })).error?.code).toBe('ENOTFOUND');
  });
});
