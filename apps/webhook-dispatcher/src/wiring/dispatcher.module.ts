import { type DynamicModule, Module } from '@nestjs/common';
import { AttemptsModule } from './attempts.module';
import { BackfillModule } from './backfill.module';
import { DeliveryLogModule } from './delivery-log.module';
import { DispatcherLifecycle } from './dispatcher-lifecycle';
import { type DispatcherSettings, settingsProviders } from './dispatcher-settings';
import { IntakeModule } from './intake.module';
import { RequestsModule } from './requests.module';
import { SchedulingModule } from './scheduling.module';
import { SubscriptionsModule } from './subscriptions.module';

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
