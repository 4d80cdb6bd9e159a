import { createServer } from 'node:net';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { AttemptSender } from './attempt.sender';

describe('AttemptSender (real HTTP)', () => {
  const open = new AttemptSender(true);
  const guarded = new AttemptSender(false);
  let receiver: WebhookReceiver;
  beforeEach(async () => (receiver = await WebhookReceiver.start()));
  afterEach(() => receiver.close());
  afterAll(() => {
    open.close();
    guarded.close();
  });

  const send = (sender: AttemptSender, url: string, timeoutMs = 1000, snippetBytes?: number) =>
    sender.send({ url, body: '{"a":"ü"}', headers: { 'Content-Type': 'application/json', 'X-Test': '1' }, timeoutMs, snippetBytes });

  it('POSTs the exact bytes with the given headers and reports the status and a snippet', async () => {
    receiver.answer(scripts.status(202, 'thanks'.repeat(400)));
    const result = await send(open, receiver.url, 1000, 10);
    expect(result).toMatchObject({ statusCode: 202, responseBodySnippet: 'thanksthan' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.rawBody.equals(Buffer.from('{"a":"ü"}', 'utf8'))).toBe(true);
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"ü"}')));
    expect(req.headers['x-test']).toBe('1');
  });

  it('does not follow redirects', async () => {
    receiver.answer(() => ({ status: 302, headers: { Location: receiver.url + '/elsewhere' } }));
    expect(await send(open, receiver.url)).toMatchObject({ statusCode: 302 });
    expect(receiver.requests).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer within the time limit', async () => {
    receiver.answer(scripts.hang());
    const result = await send(open, receiver.url, 300);
    expect(result).toMatchObject({ errorCode: 'timeout', error: 'no response within 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('reports a refused connection', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => server.close(r));
    expect(await send(open, `http://127.0.0.1:${port}/`)).toMatchObject({ errorCode: 'connection', error: 'connection failed (ECONNREFUSED)' });
  });

  it.each(['http://127.0.0.1:1/x', 'http://[::1]:1/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/'])(
    'refuses the non-public literal %s before connecting when private URLs are not allowed',
    async (url) => {
      expect(await send(guarded, url)).toMatchObject({ errorCode: 'ssrf', error: expect.stringMatching(/public address/) });
    },
  );

  it('refuses a name resolving to loopback at connect time (no request reaches the receiver)', async () => {
    expect(await send(guarded, receiver.url.replace('127.0.0.1', 'localhost'))).toMatchObject({ errorCode: 'ssrf' });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses non-http schemes and garbage', async () => {
    expect(await send(open, 'ftp://example.com/')).toMatchObject({ errorCode: 'invalid-url' });
    expect(await send(open, 'not a url')).toMatchObject({ errorCode: 'invalid-url' });
  });
});
