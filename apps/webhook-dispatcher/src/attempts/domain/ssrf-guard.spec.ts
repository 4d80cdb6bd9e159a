import * as dns from 'node:dns';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { HOST_NOT_PUBLIC_MESSAGE, SSRF_ERROR_CODE, guardedLookup, isPublicAddress, validateWebhookUrl, type ResolveAll } from './ssrf-guard';

describe('isPublicAddress', () => {
  it.each([
    // IPv4
    '127.0.0.1', '127.255.255.254', '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.0.1', '192.168.255.255', '100.64.0.1', '100.127.255.255', '169.254.169.254', '169.254.0.1', '224.0.0.1',
    '239.255.255.250', '240.0.0.1', '255.255.255.255', '192.0.0.8', '192.0.2.1', '192.88.99.1', '198.18.0.1',
    '198.19.255.255', '198.51.100.7', '203.0.113.9',
    // IPv6
    '::', '::1', '[::1]', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'fe80::1%eth0', 'febf:ffff::1', 'fec0::1', 'ff02::1',
    'ff0e::1', '2001:db8::1', '2001:db8:ffff::1', '2001::1', '2001:2::1', '3fff::1', '100::1', '64:ff9b:1::a00:1',
    // IPv6 forms embedding a non-public IPv4
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:7F00:0001', '0:0:0:0:0:ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe', '::ffff:0.0.0.0', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::192.168.0.1', '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1', '2002:a00:1::', '::127.0.0.1', '::8.8.8.8',
    // not an address at all (fail closed)
    '', 'localhost', 'example.com', '127.1', '0x7f000001', '2130706433', '1.2.3.4.5', '[127.0.0.1]',
  ])('%p is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.215.14', '11.0.0.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1',
    '169.253.255.255', '169.255.0.1', '192.167.255.255', '192.169.0.1', '198.17.255.255', '198.20.0.1', '223.255.255.255',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '[2606:4700:4700::1111]', '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1',
  ])('%p is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('is false for non-strings', () => {
    expect(isPublicAddress(undefined as unknown as string)).toBe(false);
  });
});

describe('validateWebhookUrl', () => {
  const publicResolve: ResolveAll = jest.fn(async () => [{ address: '93.184.215.14', family: 4 }]);
  const deny = { allowPrivate: false, resolve: publicResolve };
  beforeEach(() => jest.mocked(publicResolve).mockClear());

  it('normalises exotic IPv4 spellings the way WHATWG URL does (what node gives us)', () => {
    expect(new URL('http://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://127.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0/').hostname).toBe('0.0.0.0');
    expect(new URL('http://127。0。0。1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://%31%32%37.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(() => new URL('http://[fe80::1%25eth0]/')).toThrow();
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1:3000/hook',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0/',
    'http://127。0。0。1/',
    'http://%31%32%37.0.0.1/',
    'http://169.254.169.254/latest',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://10.1.2.3:8080/hook',
    'http://192.168.1.10/',
    'http://100.64.0.1/',
    'https://255.255.255.255/',
    'http://localhost/',
    'http://localhost:3000/x',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses %p without asking DNS', async (url) => {
    const result = await validateWebhookUrl(url, deny);
    expect(result).toEqual({ ok: false, message: HOST_NOT_PUBLIC_MESSAGE });
    expect(publicResolve).not.toHaveBeenCalled();
  });

  it.each([
    ['ftp://x', /http or https/],
    ['file:///etc/passwd', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['gopher://example.com/', /http or https/],
    ['ws://example.com/', /http or https/],
    ['http://user:pw@example.com', /credentials/],
    ['http://user@example.com/', /credentials/],
    ['https://:pw@example.com/', /credentials/],
    ['not a url', /absolute/],
    ['/relative/path', /absolute/],
    ['example.com/hook', /absolute/],
    ['', /absolute/],
    ['http://[fe80::1%25eth0]/', /absolute/],
    ['http://256.0.0.1/', /absolute/],
  ])('refuses %p', async (url, message) => {
    expect(await validateWebhookUrl(url, deny)).toEqual({ ok: false, message: expect.stringMatching(message) });
  });

  it('still refuses bad schemes and credentials when private URLs are allowed', async () => {
    expect((await validateWebhookUrl('ftp://x', { allowPrivate: true })).ok).toBe(false);
    expect((await validateWebhookUrl('http://user:pw@localhost/', { allowPrivate: true })).ok).toBe(false);
  });

  it.each(['https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'http://[::ffff:8.8.8.8]/'])(
    'accepts the public literal %p',
    async (url) => {
      expect(await validateWebhookUrl(url, deny)).toEqual({ ok: true });
      expect(publicResolve).not.toHaveBeenCalled();
    },
  );

  it('accepts a name that resolves only to public addresses (all of them checked)', async () => {
    const resolve = jest.fn<ReturnType<ResolveAll>, Parameters<ResolveAll>>(async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(await validateWebhookUrl('https://Hooks.Example.COM./tailsync?x=1', { allowPrivate: false, resolve })).toEqual({ ok: true });
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');
  });

  it.each([
    ['one private among public answers', ['93.184.215.14', '10.0.0.5']],
    ['a loopback answer', ['127.0.0.1']],
    ['a mapped loopback answer', ['::ffff:127.0.0.1']],
    ['the metadata address', ['169.254.169.254']],
    ['an IPv6 ULA among public answers', ['2606:4700:4700::1111', 'fd00::1']],
  ])('refuses a name with %s, without revealing the addresses', async (_name, answers) => {
    const resolve: ResolveAll = async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const result = await validateWebhookUrl('https://internal.example.com/', { allowPrivate: false, resolve });
    expect(result).toEqual({ ok: false, message: HOST_NOT_PUBLIC_MESSAGE });
    for (const address of answers) expect(JSON.stringify(result)).not.toContain(address);
  });

  it('refuses a name that does not resolve with the words it uses for a non-public one', async () => {
    const resolve: ResolveAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await validateWebhookUrl('https://nope.invalid/', { allowPrivate: false, resolve })).toEqual({
      ok: false,
      message: HOST_NOT_PUBLIC_MESSAGE,
    });
    expect(await validateWebhookUrl('https://nope.invalid/', { allowPrivate: false, resolve: async () => [] })).toMatchObject({ ok: false });
  });

  it('gives up on a resolver that hangs', async () => {
    const resolve: ResolveAll = () => new Promise(() => undefined);
    expect(await validateWebhookUrl('https://slow.example/', { allowPrivate: false, resolve, resolveTimeoutMs: 20 })).toEqual({
      ok: false,
      message: HOST_NOT_PUBLIC_MESSAGE,
    });
  });

  it('uses dns.promises.lookup(host, { all: true }) by default', async () => {
    const spy = jest.spyOn(dns.promises, 'lookup');
    try {
      const result = await validateWebhookUrl('http://tailsync-ssrf-test.invalid/', { allowPrivate: false, resolveTimeoutMs: 10_000 });
      expect(result.ok).toBe(false);
      expect(spy).toHaveBeenCalledWith('tailsync-ssrf-test.invalid', { all: true });
    } finally {
      spy.mockRestore();
    }
  });

  it('allows private and loopback hosts with allowPrivate (WEBHOOK_ALLOW_PRIVATE_URLS=true), without DNS', async () => {
    const resolve = jest.fn<ReturnType<ResolveAll>, Parameters<ResolveAll>>();
    for (const url of ['http://127.0.0.1:3000/hook', 'http://localhost/', 'http://[::1]/', 'http://169.254.169.254/', 'http://receiver.internal/']) {
      expect(await validateWebhookUrl(url, { allowPrivate: true, resolve })).toEqual({ ok: true });
    }
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('guardedLookup', () => {
  describe('with a stubbed resolver', () => {
    type Cb = Parameters<LookupFunction>[2];
    const resolverAnswering = (answers: string[]) =>
      ((hostname: string, options: dns.LookupOptions, cb: Cb) => {
        const all = answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) cb(null, all);
        else cb(null, all[0].address, all[0].family);
      }) as unknown as typeof dns.lookup;
    const run = (lookup: LookupFunction, options: dns.LookupOptions) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        lookup('hooks.example.com', options, (err, address) => resolve({ err, address })),
      );

    it('passes public answers through (single and all)', async () => {
      const lookup = guardedLookup(false, resolverAnswering(['93.184.215.14', '2606:4700:4700::1111']));
      expect(await run(lookup, {})).toEqual({ err: null, address: '93.184.215.14' });
      expect((await run(lookup, { all: true })).address).toHaveLength(2);
    });

    it('refuses with ESSRF when the chosen address is not public', async () => {
      const { err } = await run(guardedLookup(false, resolverAnswering(['169.254.169.254'])), {});
      expect(err).toMatchObject({ code: SSRF_ERROR_CODE, hostname: 'hooks.example.com', address: '169.254.169.254' });
      expect(err!.message).not.toContain('169.254.169.254');
    });

    it('refuses an all:true (happy-eyeballs) answer containing any non-public address', async () => {
      const { err } = await run(guardedLookup(false, resolverAnswering(['93.184.215.14', '::1'])), { all: true });
      expect(err).toMatchObject({ code: SSRF_ERROR_CODE });
    });

    it('lets everything through with allowPrivate', async () => {
      expect(await run(guardedLookup(true, resolverAnswering(['127.0.0.1'])), {})).toEqual({ err: null, address: '127.0.0.1' });
    });

    it('passes resolver errors through', async () => {
      const failing = ((_h: string, _o: unknown, cb: Cb) =>
        cb(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }), '')) as unknown as typeof dns.lookup;
      expect((await run(guardedLookup(false, failing), {})).err).toMatchObject({ code: 'ENOTFOUND' });
    });

    it('tolerates the legacy lookup(host, callback) shape', async () => {
      const lookup = guardedLookup(false, resolverAnswering(['10.0.0.1'])) as unknown as (h: string, cb: Cb) => void;
      const err = await new Promise((resolve) => lookup('x', (e) => resolve(e)));
      expect(err).toMatchObject({ code: SSRF_ERROR_CODE });
    });
  });

  describe('with a real http.request to a server on 127.0.0.1 (reached as "localhost")', () => {
    let server: Server;
    let port: number;
    let connections = 0;

    beforeAll(async () => {
      server = createServer((_req, res) => res.end('reached'));
      server.on('connection', () => connections++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    beforeEach(() => (connections = 0));

    // Node skips `lookup` for IP-literal hosts, so the request names the host: "localhost".
    const get = (lookup: LookupFunction, family?: 4) =>
      new Promise<{ status?: number; body?: string; error?: NodeJS.ErrnoException }>((resolve) => {
        const req = request({ host: 'localhost', port, path: '/', family, lookup, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        });
        req.on('error', (error) => resolve({ error }));
        req.end();
      });

    it.each([
      ['a single-address lookup', 4 as const],
      ['an all:true (autoSelectFamily) lookup', undefined],
    ])('blocks the connection before it is made with allowPrivate=false (%s)', async (_name, family) => {
      const result = await get(guardedLookup(false), family);
      expect(result.error).toMatchObject({ code: SSRF_ERROR_CODE });
      expect(result.status).toBeUndefined();
      expect(connections).toBe(0);
    });

    it('connects with allowPrivate=true', async () => {
      const result = await get(guardedLookup(true), 4);
      expect(result).toEqual({ status: 200, body: 'reached' });
      expect(connections).toBe(1);
    });
  });
});
