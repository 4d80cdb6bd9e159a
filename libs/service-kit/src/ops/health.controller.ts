import { Public } from './public.decorator';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReadinessReport, ReadinessResult } from './readiness-report';

const LIVE: ReadinessResult = { status: 'ok', info: {}, error: {}, details: {} };

/** A process whose HTTP port is for operators only: the readiness of every dependency, in detail. */
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly report: ReadinessReport) {}

  /** The process runs and its event loop answers. */
  @Get('live')
  live(): ReadinessResult {
    return LIVE;
  }

  /** Every dependency answers: 200 when all are up, 503 otherwise. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessResult> {
    const result = await this.report.current();
    void reply.status(result.status === 'ok' ? 200 : 503);
    return result;
  }
}

/** A public port (the API's): whether the process is ready, and nothing about its dependencies. */
@Public()
@Controller('health')
export class PublicHealthController {
  constructor(private readonly report: ReadinessReport) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: 'ok' | 'error' }> {
    const { status } = await this.report.current();
    void reply.status(status === 'ok' ? 200 : 503);
    return { status };
  }
}
