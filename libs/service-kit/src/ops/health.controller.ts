import { Public } from './public.decorator';
import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { READINESS_CHECKS, ReadinessCheck, withTimeout } from './readiness-check';

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
  ) {}

  /** The process runs and its event loop answers. */
  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** Every dependency answers: 200 when all are up, 503 otherwise. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check(
      this.checks.map((c) => async () => {
        const session = this.indicators.check(c.name);
        try {
          await withTimeout(c.check(), 3000, c.name);
          return session.up();
        } catch (error) {
          return session.down({ message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
  }
}
