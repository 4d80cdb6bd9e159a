import Fastify, { type FastifyInstance } from 'fastify';
import { keepRawJsonBody, webhookPreHandler } from './fastify';
import { newSecret, sampleBody, signWebhook, webhookHeaders } from './testing/fixtures';

const secret = newSecret();

describe('webhookPreHandler (Fastify) over a real HTTP server', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    app.post('/parsed', async (req) => ({ parsed: req.body })); // outside the plugin, JSON is parsed as usual
    await app.register(async (hooks) => {
      keepRawJsonBody(hooks);
      hooks.post('/hook', { preHandler: webhookPreHandler({ secret }) }, async (req) => ({ received: req.webhook?.payload, sub: req.webhook?.claims.sub }));
      hooks.post('/hook-taking-tests', { preHandler: webhookPreHandler({ getSecret: async () => [newSecret(), secret], testCalls: 'accept' }) }, async (req) => ({
        received: req.webhook?.payload,
        test: req.webhook?.claims.test,
      }));
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const post = (path: string, body: string, { sentBody = body, test = false } = {}) => {
    const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', ...(test ? { test: true as const } : {}) });
    return fetch(`${base}${path}`, { method: 'POST', headers: webhookHeaders({ token, eventId: test ? 'test_1' : 'evt-1', attempt: 1 }), body: sentBody });
  };

  it('accepts a signed callback and exposes the verified payload on request.webhook', async () => {
    const body = sampleBody();
    const res = await post('/hook', body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: JSON.parse(body), sub: 'acme' });
  });

  it('answers 401 with the step and code to a tampered body, and leaves the rest of the app parsing JSON', async () => {
    const body = sampleBody();
    const res = await post('/hook', body, { sentBody: body.replace('42', '43') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Token/);
    expect(await res.json()).toEqual({ error: 'payloadHash does not match the request body', step: 6, code: 'payload-mismatch' });
    const parsed = await fetch(`${base}/parsed`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(await parsed.json()).toEqual({ parsed: { a: 1 } });
  });

  it('refuses a Test call unless the route accepts test calls', async () => {
    const refused = await post('/hook', '{"hello":"test"}', { test: true });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ step: 7, code: 'test-call' });
    const taken = await post('/hook-taking-tests', '{"hello":"test"}', { test: true });
    expect(await taken.json()).toEqual({ received: { hello: 'test' }, test: true });
  });

  it('needs a secret or getSecret', () => {
    expect(() => webhookPreHandler({} as never)).toThrow(/secret/);
  });
});
