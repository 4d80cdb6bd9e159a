import { Parser } from '@asyncapi/parser';
import { API_VERSION, asyncApiDocument, KAFKA_TOPICS } from '@tailsync/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseUrl, managementUrl } from './support/test-stack';

describe('proof of life', () => {
  it('answers /health/ready on the management port with every dependency up, after a gRPC round trip to both services', async () => {
    const res = await fetch(`${managementUrl()}/health/ready`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe('ok');
    expect(Object.keys(body.info).sort()).toEqual(['database', 'tail-sync', 'webhook-dispatcher']);
  });

  it('answers the public /health/ready with its status only, checking at most once a second however often asked', async () => {
    const runs = async () => Number(/^tailsync_readiness_check_runs_total (\d+)/m.exec(await (await fetch(`${managementUrl()}/metrics`)).text())?.[1]);
    const before = await runs();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${baseUrl()}/health/ready`)));
    for (let i = 0; i < 50; i++) answers.push(await fetch(`${baseUrl()}/health/ready`));
    const seconds = (Date.now() - started) / 1000;
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    }
    // One round a second at most, plus one already running when the window opened.
    expect((await runs()) - before).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it('keeps /metrics and the detailed report off the public port', async () => {
    expect((await fetch(`${baseUrl()}/metrics`)).status).toBe(404);
    const ready = (await (await fetch(`${baseUrl()}/health/ready`)).json()) as object;
    expect(Object.keys(ready)).toEqual(['status']);
  });

  it('answers /health/live', async () => {
    const res = await fetch(`${baseUrl()}/health/live`);
    expect(res.status).toBe(200);
  });

  it('reports the interface version on /Version and in X-Api-Version, with the build it runs', async () => {
    const res = await fetch(`${baseUrl()}/Version`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-version')).toBe(API_VERSION);
    // Started from a checkout: the release is package.json's; only an image knows its commit and build time.
    const release = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
    expect(await res.json()).toEqual({ version: API_VERSION, build: { release, revision: null, created: null, node: process.version } });
  });

  it('puts X-Api-Version and a problem body on errors too', async () => {
    const res = await fetch(`${baseUrl()}/no-such-endpoint`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-api-version')).toBe(API_VERSION);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ status: 404, isValid: false, type: expect.stringMatching(/\/docs\/errors#not-found$/) });
    expect(body.instance).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes X-Request-Id', async () => {
    const res = await fetch(`${baseUrl()}/Version`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });

  it('serves metrics on every process (the gateway on its management port)', async () => {
    for (const port of [14000, 13001, 13002]) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('process_cpu_seconds_total');
    }
  });
});

describe('OpenAPI', () => {
  it('documents every endpoint of the contract, generated from the code', async () => {
    const res = await fetch(`${baseUrl()}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe(API_VERSION);
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const op of [
      'PUT /Tails', 'PUT /Tails/Bulk', 'POST /Tails/Deactivate', 'POST /Tails/Reactivate', 'POST /Tails/ChangeTailNumber',
      'GET /Tails', 'GET /Tails/{mappedId}', 'GET /Tails/{mappedId}/History',
      'POST /oauth/token', 'POST /admin/ServiceAccounts', 'GET /Version',
      'POST /WebhookSubscriptions', 'GET /WebhookSubscriptions', 'DELETE /WebhookSubscriptions', 'POST /WebhookSubscriptions/Test',
      'GET /WebhookSubscriptions/Deliveries', 'POST /WebhookSubscriptions/Deliveries/{id}/Redeliver',
    ]) {
      expect(ops).toContain(op);
    }
    expect(doc.components.schemas.TailDto.properties.tailNumber.maxLength).toBe(20);
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await fetch(`${baseUrl()}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });

  it('serves the error help page with every anchor problems point at', async () => {
    const html = await (await fetch(`${baseUrl()}/docs/errors`)).text();
    for (const id of ['validation-errors', 'not-found', 'conflict', 'unauthorized', 'rate-limited', 'payload-too-large']) {
      expect(html).toContain(`id="${id}"`);
    }
  });
});

describe('AsyncAPI', () => {
  it('serves the AsyncAPI document of the Kafka topics at /asyncapi.json, valid for @asyncapi/parser', async () => {
    const res = await fetch(`${baseUrl()}/asyncapi.json`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(asyncApiDocument());
    const { document, diagnostics } = await new Parser().parse(text);
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
    expect(document!.channels().all().map((c) => c.address()).sort()).toEqual(KAFKA_TOPICS.map((t) => t.topic).sort());
    expect(document!.messages().all().map((m) => m.name()).sort()).toEqual(KAFKA_TOPICS.map((t) => t.message.name).sort());
  });
});
