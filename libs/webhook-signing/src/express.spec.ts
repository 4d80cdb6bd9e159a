import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Express, Request } from 'express';
import { webhookVerifier } from './express';
import { newSecret, sampleBody, signWebhook, webhookHeaders } from './testing/fixtures';

// express is installed as a dependency of @nestjs/platform-express.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express = require('express') as typeof import('express');

const secret = newSecret();

function buildApp(): Express {
  const app = express();
  const echo = (req: Request, res: import('express').Response) => res.status(200).json({ received: req.webhook?.payload, sub: req.webhook?.claims.sub });
  app.post('/hook', express.raw({ type: 'application/json' }), webhookVerifier({ secret }), echo);
  app.post('/hook-async', express.raw({ type: 'application/json' }), webhookVerifier({ getSecret: async () => [newSecret(), secret] }), echo);
  app.post('/hook-failing-secret', express.raw({ type: 'application/json' }), webhookVerifier({ getSecret: async () => { throw new Error('vault down'); } }), echo);
  app.post('/hook-taking-tests', express.raw({ type: 'application/json' }), webhookVerifier({ secret, testCalls: 'accept' }), echo);
  app.post('/misconfigured', express.json(), webhookVerifier({ secret }), echo);
  return app;
}

describe('webhookVerifier (Express) over a real HTTP server', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(buildApp());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  });

  const signedRequest = (body: string, sentBody = body) => {
    const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted' });
    return { method: 'POST', headers: webhookHeaders({ token, eventId: 'evt-1', attempt: 1 }), body: sentBody };
  };

  it('accepts a signed callback (200) and exposes the verified payload on req.webhook', async () => {
    const body = sampleBody();
    const res = await fetch(`${base}/hook`, signedRequest(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: JSON.parse(body), sub: 'acme' });
  });

  it('answers 401 { error, step: 6 } to a tampered body', async () => {
    const body = sampleBody();
    const res = await fetch(`${base}/hook`, signedRequest(body, body.replace('42', '43')));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Token/);
    expect(await res.json()).toEqual({ error: 'payloadHash does not match the request body', step: 6, code: 'payload-mismatch' });
  });

  it('refuses a Test call (401, code test-call) unless the route accepts test calls', async () => {
    const body = '{"hello":"test"}';
    const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', test: true });
    const init = { method: 'POST', headers: webhookHeaders({ token, eventId: 'test_1', attempt: 1 }), body };
    const refused = await fetch(`${base}/hook`, init);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ step: 7, code: 'test-call' });
    const taken = await fetch(`${base}/hook-taking-tests`, init);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ received: { hello: 'test' }, sub: 'acme' });
  });

  it('answers 401 step 1 without an Authorization header', async () => {
    const res = await fetch(`${base}/hook`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ step: 1 });
  });

  it('answers 401 step 2 to a token signed with another secret', async () => {
    const body = '{"a":1}';
    const token = signWebhook({ body, secret: newSecret(), domain: 'acme', eventName: 'E' });
    const res = await fetch(`${base}/hook`, { method: 'POST', headers: webhookHeaders({ token, eventId: 'e', attempt: 1 }), body });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ step: 2 });
  });

  it('fails closed (401) when the body arrives with another Content-Type', async () => {
    const body = '{"a":1}';
    const init = signedRequest(body);
    const res = await fetch(`${base}/hook`, { ...init, headers: { ...init.headers, 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ step: 6 });
  });

  it('resolves the secret per request with getSecret (several secrets while rotating)', async () => {
    const body = sampleBody();
    const res = await fetch(`${base}/hook-async`, signedRequest(body));
    expect(res.status).toBe(200);
  });

  it('passes a getSecret failure to the error handler (500), never accepting the request', async () => {
    const res = await fetch(`${base}/hook-failing-secret`, signedRequest('{}'));
    expect(res.status).toBe(500);
  });

  it('refuses to run after express.json() (the raw bytes are gone): 500, not a silent pass', async () => {
    const res = await fetch(`${base}/misconfigured`, signedRequest('{"a":1}'));
    expect(res.status).toBe(500);
  });

  it('needs a secret or getSecret', () => {
    expect(() => webhookVerifier({} as never)).toThrow(/secret/);
  });
});
