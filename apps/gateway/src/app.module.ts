import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { validationPipe } from './http/validation';
import type { wire } from '@tailsync/contracts';
import {
  CallerTokenSigner, createPool, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness,
} from '@tailsync/service-kit';
import { GatewayConfig } from './config/gateway.config';
import { GatewayMigrations } from './gateway-migrations';
import { ErrorsPageController } from './problems/interface/errors-page.controller';
import { ProblemFilter } from './problems/interface/problem.filter';
import { DISPATCHER_SERVICE, DispatcherClient } from './services/infrastructure/dispatcher.client';
import { ServiceChannel } from './services/infrastructure/service-channel';
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
  const pool = createPool(config.DATABASE_URL);
  const signer = new CallerTokenSigner(config.SERVICE_SIGNING_KEY);
  const tailSync = new TailSyncClient(new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: config.TAIL_SYNC_GRPC_TARGET }, signer));
  const dispatcher = new DispatcherClient(
    new ServiceChannel<wire.WebhookDispatcherDefinition>({ ...DISPATCHER_SERVICE, target: config.WEBHOOK_DISPATCHER_GRPC_TARGET }, signer),
  );

  /** What every feature module of the gateway uses: settings, its database, the services over gRPC. */
  @Global()
  @Module({
    providers: [
      { provide: GatewayConfig, useValue: config },
      { provide: PG_POOL, useValue: pool },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool) },
      { provide: TailSyncClient, useValue: tailSync },
      { provide: DispatcherClient, useValue: dispatcher },
      { provide: ServiceChannels, useValue: new ServiceChannels([tailSync, dispatcher]) },
      GatewayMigrations,
    ],
    exports: [GatewayConfig, PG_POOL, TailSyncClient, DispatcherClient],
  })
  class GatewayCoreModule {}

  @Module({
    imports: [
      GatewayCoreModule,
      loggingModule('gateway', config.LOG_LEVEL),
      OpsModule.withManagementPort([
        new PostgresReadiness(pool),
        new ServiceReadiness(TAIL_SYNC_SERVICE.name, tailSync),
        new ServiceReadiness(DISPATCHER_SERVICE.name, dispatcher),
      ], config.MANAGEMENT_PORT),
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
