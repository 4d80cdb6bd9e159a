import { DynamicModule, Module } from '@nestjs/common';
import { HealthController, PublicHealthController } from './health.controller';
import { ManagementServer } from './management-server';
import { MetricsController } from './metrics';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';
import { ReadinessReport } from './readiness-report';
import { TracingShutdown } from '../observability/tracing-shutdown';

/** Health and metrics. Readiness is checked at most once a second, however often it is asked. */
@Module({})
export class OpsModule {
  /** A process whose HTTP port only operators reach: `/health/live`, `/health/ready` in detail, `/metrics`. */
  static forRoot(checks: ReadinessCheck[]): DynamicModule {
    return {
      module: OpsModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [{ provide: READINESS_CHECKS, useValue: checks }, { provide: ReadinessReport, useValue: new ReadinessReport(checks) }, TracingShutdown],
      exports: [READINESS_CHECKS],
    };
  }

  /**
   * A process with a public port: there only `/health/live` and `/health/ready` answering
   * `{ status }`; the detail and `/metrics` on `managementPort`.
   */
  static withManagementPort(checks: ReadinessCheck[], managementPort: number): DynamicModule {
    const report = new ReadinessReport(checks);
    return {
      module: OpsModule,
      global: true,
      controllers: [PublicHealthController],
      providers: [
        { provide: READINESS_CHECKS, useValue: checks },
        { provide: ReadinessReport, useValue: report },
        { provide: ManagementServer, useValue: new ManagementServer(managementPort, report) },
        TracingShutdown,
      ],
      exports: [READINESS_CHECKS],
    };
  }
}
