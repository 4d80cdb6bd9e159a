import { DynamicModule, InjectionToken, Module, Provider } from '@nestjs/common';
import { HealthController, PublicHealthController } from './health.controller';
import { ManagementServer } from './management-server';
import { MetricsController } from './metrics.controller';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';
import { ReadinessReport } from './readiness-report';
import { TracingShutdown } from '../observability/tracing-shutdown';

/**
 * The readiness checks, as values or made by Nest from the providers they need (the pool, the
 * event store, the settings), so a process's connections are built by its injector alone.
 */
export type ReadinessChecks = ReadinessCheck[] | { inject: InjectionToken[]; useFactory: (...dependencies: any[]) => ReadinessCheck[] };

/** Health and metrics. Readiness is checked at most once a second, however often it is asked. */
@Module({})
export class OpsModule {
  /** A process whose HTTP port only operators reach: `/health/live`, `/health/ready` in detail, `/metrics`. */
  static forRoot(checks: ReadinessChecks): DynamicModule {
    return {
      module: OpsModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [...readinessProviders(checks), TracingShutdown],
      exports: [READINESS_CHECKS],
    };
  }

  /**
   * A process with a public port: there only `/health/live` and `/health/ready` answering
   * `{ status }`; the detail and `/metrics` on `management.port`, bound to `management.host`.
   */
  static withManagementPort(checks: ReadinessChecks, management: { port: number; host: string }): DynamicModule {
    return {
      module: OpsModule,
      global: true,
      controllers: [PublicHealthController],
      providers: [
        ...readinessProviders(checks),
        { provide: ManagementServer, useFactory: (report: ReadinessReport) => new ManagementServer(management.port, management.host, report), inject: [ReadinessReport] },
        TracingShutdown,
      ],
      exports: [READINESS_CHECKS],
    };
  }
}

function readinessProviders(checks: ReadinessChecks): Provider[] {
  return [
    Array.isArray(checks) ? { provide: READINESS_CHECKS, useValue: checks } : { provide: READINESS_CHECKS, ...checks },
    { provide: ReadinessReport, useFactory: (all: ReadinessCheck[]) => new ReadinessReport(all), inject: [READINESS_CHECKS] },
  ];
}
