import { Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  kafkaConnection, CallerTokenVerifier, INSTANCE_ID, KafkaReadiness, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness, ServedCalls,
} from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { DispatcherRuntime } from './dispatcher.runtime';
import { requestHandlersOf } from './request-handlers';
import { BackfillRequests } from './interface/backfill-requests';
import { RecoveryRequests } from './interface/recovery-requests';
import { SigningKeyRequests } from './interface/signing-key-requests';
import { SubscriptionRequests } from './interface/subscription-requests';
import { WebhookDispatcherGrpc } from './interface/webhook-dispatcher.grpc';
import { AdminRequests } from './interface/admin-requests';
import { ConsumerLag } from './admin/consumer-lag';
import { DeliveryActivityStore } from './admin/delivery-activity.store';
import { WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';

/** Starts the consumer and the scheduler once Nest is up; stops them first on shutdown (before the pool closes). */
class RuntimeLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly runtime: DispatcherRuntime) {}
  onApplicationBootstrap(): Promise<void> {
    return this.runtime.start();
  }
  onModuleDestroy(): Promise<void> {
    return this.runtime.stop();
  }
}

/** The webhook-dispatcher process, wired for one runtime (its tables already migrated). */
export function appModule(runtime: DispatcherRuntime) {
  const { config, pool, instanceId } = runtime;
  const handlers = requestHandlersOf(runtime);

  @Module({
    imports: [
      loggingModule('webhook-dispatcher', config.LOG_LEVEL),
      OpsModule.forRoot([new KafkaReadiness(kafkaConnection(config)), new PostgresReadiness(pool)]),
    ],
    controllers: [WebhookDispatcherGrpc],
    providers: [
      { provide: SubscriptionRequests, useValue: handlers.subscriptions },
      { provide: RecoveryRequests, useValue: handlers.recovery },
      { provide: BackfillRequests, useValue: handlers.backfill },
      { provide: SigningKeyRequests, useValue: handlers.signingKeys },
      AdminRequests,
      { provide: ServedCalls, useValue: new ServedCalls(new CallerTokenVerifier(config.SERVICE_VERIFY_KEY, 'webhook-dispatcher')) },
      { provide: WebhookDispatcherConfig, useValue: config },
      { provide: INSTANCE_ID, useValue: instanceId },
      { provide: PG_POOL, useValue: pool },
      { provide: RuntimeLifecycle, useFactory: () => new RuntimeLifecycle(runtime) },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool, runtime.plannedOncePool) },
      { provide: DeliveryActivityStore, useValue: new DeliveryActivityStore(pool) },
      {
        provide: ConsumerLag,
        useFactory: () => new ConsumerLag(kafkaConnection(config), `webhook-dispatcher-admin-${instanceId}`, config.WEBHOOK_EVENTS_GROUP_ID, WEBHOOK_EVENT_TYPES.map((type) => type.input.topic)),
      },
    ],
  })
  class WebhookDispatcherModule {}
  return WebhookDispatcherModule;
}
