import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { validationPipe } from './http/validation';
import type { wire } from '@tailsync/contracts';
import {
  createPool, grpcTlsFiles, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness, type ReadinessCheck,
} from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { GatewayConfig } from './config/gateway.config';
import { GatewayMigrations } from './gateway-migrations';
import { ErrorsPageController } from './problems/interface/errors-page.controller';
import { ProblemFilter } from './problems/interface/problem.filter';
import { DISPATCHER_SERVICE, DispatcherClient } from './services/infrastructure/dispatcher.client';
import { ServiceChannel } from './services/infrastructure/service-channel';
import { ServiceSigningKey } from './services/infrastructure/service-signing-key';
import { TAIL_SYNC_SERVICE, TailSyncClient } from './services/infrastructure/tail-sync.client';
import { ServiceReadiness } from './system/service-readiness';
import { VersionController } from './system/version.controller';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuthModule } from './auth/auth.module';
import { TailsModule } from './tails/tails.module';
import { AdminModule } from './admin/admin.module';
import { ConsoleModule } from './console/console.module';

/** Closes the services' channels when the gateway stops. */
class ServiceChannels implements OnApplicationShutdown {
  constructor(private readonly clients: { close(): void }[]) {}
  onApplicationShutdown(): void {
    for (const client of this.clients) client.close();
  }
}

/** The gateway process, wired for one configuration. */
export function appModule(config: GatewayConfig) {
  /** What every feature module of the gateway uses: settings, its database, the services over gRPC. */
  @Global()
  @Module({
    providers: [
      { provide: GatewayConfig, useValue: config },
      { provide: PG_POOL, useFactory: (settings: GatewayConfig) => createPool(settings.DATABASE_URL), inject: [GatewayConfig] },
      { provide: PoolLifecycle, useFactory: (pool: Pool) => new PoolLifecycle(pool), inject: [PG_POOL] },
      { provide: ServiceSigningKey, useFactory: (settings: GatewayConfig) => new ServiceSigningKey(settings), inject: [GatewayConfig] },
      {
        provide: TailSyncClient,
        useFactory: (settings: GatewayConfig, signer: ServiceSigningKey) =>
          new TailSyncClient(new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: settings.TAIL_SYNC_GRPC_TARGET, tls: grpcTlsFiles(settings) }, signer)),
        inject: [GatewayConfig, ServiceSigningKey],
      },
      {
        provide: DispatcherClient,
        useFactory: (settings: GatewayConfig, signer: ServiceSigningKey) =>
          new DispatcherClient(new ServiceChannel<wire.WebhookDispatcherDefinition>({ ...DISPATCHER_SERVICE, target: settings.WEBHOOK_DISPATCHER_GRPC_TARGET, tls: grpcTlsFiles(settings) }, signer)),
        inject: [GatewayConfig, ServiceSigningKey],
      },
      { provide: ServiceChannels, useFactory: (...clients: { close(): void }[]) => new ServiceChannels(clients), inject: [TailSyncClient, DispatcherClient] },
      GatewayMigrations,
    ],
    exports: [GatewayConfig, PG_POOL, TailSyncClient, DispatcherClient],
  })
  class GatewayCoreModule {}

  @Module({
    imports: [
      GatewayCoreModule,
      loggingModule('gateway', config.LOG_LEVEL),
      OpsModule.withManagementPort({ inject: [PG_POOL, TailSyncClient, DispatcherClient], useFactory: readinessChecks }, { port: config.MANAGEMENT_PORT, host: config.HOST }),
      AuthModule,
      TailsModule,
      WebhooksModule,
      AdminModule,
      ConsoleModule,
    ],
    controllers: [VersionController, ErrorsPageController],
    providers: [
      { provide: APP_FILTER, useClass: ProblemFilter },
      { provide: APP_PIPE, useValue: validationPipe },
    ],
  })
  class GatewayModule {}
  return GatewayModule;
}

/** PostgreSQL, and each service answering a Ping (Kafka is theirs to check, and no request needs it). */
function readinessChecks(pool: Pool, tailSync: TailSyncClient, dispatcher: DispatcherClient): ReadinessCheck[] {
  return [new PostgresReadiness(pool), new ServiceReadiness(TAIL_SYNC_SERVICE.name, tailSync), new ServiceReadiness(DISPATCHER_SERVICE.name, dispatcher)];
}
