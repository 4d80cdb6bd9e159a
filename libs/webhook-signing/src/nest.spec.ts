import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Body, Controller, HttpCode, Module, Post, UseGuards, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { WEBHOOK_SECRET, WEBHOOK_VERIFY_OPTIONS, WebhookEvent, WebhookSignatureGuard } from './nest';
import { newSecret, sampleBody, signWebhook, webhookHeaders } from './testing/fixtures';
import type { VerifiedWebhook } from './verify';

const secret = newSecret();
const otherSecret = newSecret();

@Controller('hooks')
class HooksController {
  @Post('provided')
  @HttpCode(200)
  @UseGuards(WebhookSignatureGuard)
  provided(@WebhookEvent() event: VerifiedWebhook) {
    return { received: event.payload, evt: event.claims.evt };
  }

  @Post('constructed')
  @HttpCode(200)
  @UseGuards(new WebhookSignatureGuard(otherSecret))
  constructed(@Body() body: unknown) {
    return { body };
  }
}

@Module({
  controllers: [HooksController],
  providers: [
    { provide: WEBHOOK_SECRET, useValue: secret },
    { provide: WEBHOOK_VERIFY_OPTIONS, useValue: { clockToleranceSeconds: 5 } },
  ],
})
class HooksModule {}

async function start(rawBody: boolean): Promise<{ app: INestApplication; base: string }> {
  const app = await NestFactory.create(HooksModule, { rawBody, logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}` };
}

const signed = (body: string, key = secret, sentBody = body) => {
  const token = signWebhook({ body, secret: key, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted' });
  return { method: 'POST', headers: webhookHeaders({ token, eventId: 'evt-1', attempt: 2 }), body: sentBody };
};

describe('WebhookSignatureGuard (NestJS, rawBody: true) over a real HTTP server', () => {
  let app: INestApplication;
  let base: string;
  beforeAll(async () => ({ app, base } = await start(true)));
  afterAll(() => app.close());

  it('accepts a signed callback and hands the verified payload to the handler', async () => {
    const body = sampleBody();
    const res = await fetch(`${base}/hooks/provided`, signed(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: JSON.parse(body), evt: 'Product.RiskAssessmentExecuted' });
  });

  it('answers 401 with the failing step to a tampered body', async () => {
    const body = sampleBody();
    const res = await fetch(`${base}/hooks/provided`, signed(body, secret, body.replace('acme', 'evil')));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Token/);
    expect(await res.json()).toEqual({ statusCode: 401, error: 'payloadHash does not match the request body', step: 6, code: 'payload-mismatch' });
  });

  it('refuses a Test call (401, code test-call): the module did not accept test calls', async () => {
    const body = '{"hello":"test"}';
    const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', test: true });
    const res = await fetch(`${base}/hooks/provided`, { method: 'POST', headers: webhookHeaders({ token, eventId: 'test_1', attempt: 1 }), body });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, step: 7, code: 'test-call' });
  });

  it('answers 401 step 1 without a token and step 2 with the wrong secret', async () => {
    const noToken = await fetch(`${base}/hooks/provided`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ step: 1 });
    const wrong = await fetch(`${base}/hooks/provided`, signed('{}', otherSecret));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ step: 2 });
  });

  it('works as a constructed guard instance with its own secret', async () => {
    expect((await fetch(`${base}/hooks/constructed`, signed('{"x":1}', otherSecret))).status).toBe(200);
    expect((await fetch(`${base}/hooks/constructed`, signed('{"x":1}', secret))).status).toBe(401);
  });

  it('cannot be constructed without a secret', () => {
    expect(() => new WebhookSignatureGuard(undefined as never)).toThrow(/secret/);
  });
});

describe('WebhookSignatureGuard without rawBody: true', () => {
  let app: INestApplication;
  let base: string;
  beforeAll(async () => ({ app, base } = await start(false)));
  afterAll(() => app.close());

  it('fails loudly (500) instead of verifying a re-serialised body', async () => {
    const res = await fetch(`${base}/hooks/provided`, signed('{"a":1}'));
    expect(res.status).toBe(500);
  });
});
