import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { validationPipe } from './http/validation';
import { TAIL_PATTERNS, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import {
  BatchingClientKafka, kafkaConnection, createPool, KafkaReadiness, kafkaTransport, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness,
} from '@tailsync/service-kit';
import { GatewayConfig } from './config/gateway.config';
import { GatewayMigrations } from './gateway-migrations';
import { ErrorsPageController } from './problems/errors-page.controller';
import { ProblemFilter } from './problems/problem.filter';
import { ServicesClient } from './rpc/services.client';
import { ServiceReadiness } from './system/service-readiness';
import { VersionController } from './system/version.controller';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuthModule } from './auth/auth.module';
import { TailsModule } from './tails/tails.module';
import { AdminModule } from './admin/admin.module';
import { ConsoleModule } from './console/console.module';

/** The gateway process, wired for one configuration. */
export function appModule(config: GatewayConfig, instanceId: string) {
  const pool = createPool(config.DATABASE_URL);
  const kafka = new BatchingClientKafka(
    kafkaTransport({ connection: kafkaConnection(config), clientId: `gateway-${instanceId}`, groupId: 'gateway-replies' }).options ?? {},
  );
  const services = new ServicesClient(kafka, config);

  /** What every feature module of the gateway uses: settings, its database, the services over Kafka. */
  @Global()
  @Module({
    providers: [
      { provide: GatewayConfig, useValue: config },
      { provide: PG_POOL, useValue: pool },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool) },
      { provide: ServicesClient, useValue: services },
      GatewayMigrations,
    ],
    exports: [GatewayConfig, PG_POOL, ServicesClient],
  })
  class GatewayCoreModule {}

  @Module({
    imports: [
      GatewayCoreModule,
      loggingModule('gateway', config.LOG_LEVEL),
      OpsModule.forRoot([
        new KafkaReadiness(kafkaConnection(config)),
        new PostgresReadiness(pool),
        new ServiceReadiness('tail-sync', TAIL_PATTERNS.ping, services),
        new ServiceReadiness('webhook-dispatcher', WEBHOOK_PATTERNS.ping, services),
      ]),
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
