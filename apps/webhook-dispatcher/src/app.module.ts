import { Module, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  kafkaConnection, KafkaReadiness, loggingModule, OpsModule, PoolLifecycle, PostgresReadiness, ServedCalls, servedCalls,
} from '@tailsync/service-kit';
import { DispatcherLifecycle } from './dispatcher-lifecycle';
import { DispatcherModule } from './dispatcher.module';
import type { DispatcherSettings } from './config/dispatcher-settings';
import { WebhookDispatcherGrpc } from './interface/webhook-dispatcher.grpc';
import { WEBHOOK_DISPATCHER_ROLES } from './interface/webhook-dispatcher.roles';

/** Migrates before anything is served, starts the copy once Nest is up, stops it first on shutdown (before the pools close). */
class LifecycleHooks implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly lifecycle: DispatcherLifecycle) {}
  onModuleInit(): Promise<void> {
    return this.lifecycle.migrate();
  }
  onApplicationBootstrap(): Promise<void> {
    return this.lifecycle.start();
  }
  onModuleDestroy(): Promise<void> {
    return this.lifecycle.stop();
  }
}

/** The webhook-dispatcher process: one copy (DispatcherModule) behind its gRPC service and management port. */
export function appModule(settings: DispatcherSettings) {
  const { config, pool } = settings;

  @Module({
    imports: [
      loggingModule('webhook-dispatcher', config.LOG_LEVEL),
      DispatcherModule.forRoot(settings),
      OpsModule.forRoot([new KafkaReadiness(kafkaConnection(config)), new PostgresReadiness(pool)]),
    ],
    controllers: [WebhookDispatcherGrpc],
    providers: [
      { provide: ServedCalls, useFactory: () => servedCalls(config, { audience: 'webhook-dispatcher', service: 'WebhookDispatcher', roles: WEBHOOK_DISPATCHER_ROLES }) },
      { provide: LifecycleHooks, inject: [DispatcherLifecycle], useFactory: (lifecycle: DispatcherLifecycle) => new LifecycleHooks(lifecycle) },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool, settings.plannedOncePool ?? pool) },
    ],
  })
  class WebhookDispatcherModule {}
  return WebhookDispatcherModule;
}
