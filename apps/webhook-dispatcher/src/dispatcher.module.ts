import { type DynamicModule, Module, type ValueProvider } from '@nestjs/common';
import { INSTANCE_ID, PG_POOL } from '@tailsync/service-kit';
import { AttemptsModule } from './attempts/attempts.module';
import { BackfillModule } from './backfill/backfill.module';
import { DeliveryLogModule } from './delivery-log/delivery-log.module';
import { DispatcherLifecycle } from './dispatcher-lifecycle';
import { DISPATCHER_SETTINGS, type DispatcherSettings, EVENT_TYPES, eventTypesOf, PLANNED_ONCE_POOL } from './config/dispatcher-settings';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { IntakeModule } from './intake/intake.module';
import { RequestsModule } from './interface/requests.module';
import { SchedulingModule } from './scheduling/scheduling.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';

const CONCERNS = [DeliveryLogModule, SubscriptionsModule, AttemptsModule, SchedulingModule, IntakeModule, BackfillModule, RequestsModule];

/** Everything one dispatcher copy runs, by concern, built by Nest from its settings (nothing started: DispatcherLifecycle). */
@Module({})
export class DispatcherModule {
  static forRoot(settings: DispatcherSettings): DynamicModule {
    const values = settingsProviders(settings);
    return {
      module: DispatcherModule,
      global: true, // the settings' values reach every concern's providers
      imports: CONCERNS,
      providers: [...values, DispatcherLifecycle],
      exports: [...values.map((value) => value.provide), DispatcherLifecycle, ...CONCERNS],
    };
  }
}

/** The values every concern's providers are made from. */
function settingsProviders(settings: DispatcherSettings): ValueProvider[] {
  const { config, instanceId } = settings;
  return [
    { provide: DISPATCHER_SETTINGS, useValue: settings },
    { provide: WebhookDispatcherConfig, useValue: config },
    { provide: INSTANCE_ID, useValue: instanceId },
    { provide: PG_POOL, useValue: settings.pool },
    { provide: PLANNED_ONCE_POOL, useValue: settings.plannedOncePool ?? settings.pool },
    { provide: EVENT_TYPES, useValue: eventTypesOf(settings) },
  ];
}
