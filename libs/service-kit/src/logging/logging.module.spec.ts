import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoLogger } from 'nestjs-pino';
import { Writable } from 'node:stream';
import { addAccessLog, loggingModule } from './logging.module';

/** The JSON lines a service wrote, as they reach its destination. */
class Lines extends Writable {
  readonly records: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line) this.records.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

@Controller()
class SecretsController {
  constructor(private readonly logger: PinoLogger) {}

  @Get('/subscriptions')
  list(): object {
    this.logger.info({ subscription: { url: 'https://example.org/hook', sharedSecret: 'whsec-in-a-handler-line' } }, 'subscription read');
    return { ok: true };
  }
}

describe('the logs of a service (loggingModule, addAccessLog)', () => {
  let app: NestFastifyApplication;
  const lines = new Lines();

  beforeAll(async () => {
    @Module({ imports: [loggingModule('spec-service', 'info', lines)], controllers: [SecretsController] })
    class SpecModule {}
    app = await NestFactory.create<NestFastifyApplication>(SpecModule, new FastifyAdapter(), { logger: false });
    addAccessLog(app.getHttpAdapter().getInstance());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  it('logs each request once, in a line of fixed fields: no header, no body, no credential', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/subscriptions?page=2',
      headers: { authorization: 'Bearer header-token-never-logged', cookie: 'session=never-logged', 'x-request-id': 'req-1' },
    });
    expect(res.statusCode).toBe(200);
    const access = lines.records.filter((r) => r.msg === 'request completed');
    expect(access).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        service: 'spec-service',
        requestId: 'req-1',
        req: { id: 'req-1', method: 'GET', url: '/subscriptions?page=2', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
        msg: 'request completed',
      },
    ]);
    expect(JSON.stringify(lines.records)).not.toMatch(/never-logged/);
  });

  it('redacts a secret in any other line', () => {
    const line = lines.records.find((r) => r.msg === 'subscription read');
    expect(line).toMatchObject({ subscription: { url: 'https://example.org/hook', sharedSecret: '[redacted]' } });
    expect(JSON.stringify(lines.records)).not.toContain('whsec-in-a-handler-line');
  });
});
