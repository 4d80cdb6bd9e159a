import { DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';
import { TracingShutdown } from '../observability/tracing-shutdown';

/** `/health/live`, `/health/ready` and `/metrics`, the same on every process. */
@Module({})
export class OpsModule {
  static forRoot(checks: ReadinessCheck[]): DynamicModule {
    return {
      module: OpsModule,
      global: true,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, MetricsController],
      providers: [{ provide: READINESS_CHECKS, useValue: checks }, TracingShutdown],
      exports: [READINESS_CHECKS],
    };
  }
}
