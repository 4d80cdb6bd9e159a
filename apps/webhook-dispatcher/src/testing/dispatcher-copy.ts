import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Pool } from 'pg';
import { AttemptSender } from '../attempts/attempt.sender';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { DeliveryAdmission } from '../intake/delivery-admission';
import { BackfillRequests } from '../interface/backfill-requests';
import { RecoveryRequests } from '../interface/recovery-requests';
import { SigningKeyRequests } from '../interface/signing-key-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import { SubscriptionState } from '../subscriptions/subscription-state';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { DispatcherLifecycle } from '../dispatcher-lifecycle';
import { DispatcherModule } from '../dispatcher.module';
import type { DispatcherSettings } from '../config/dispatcher-settings';
import { SecretBox } from '../sealing/secret-box';

/**
 * One dispatcher copy built by Nest as the app builds it (DispatcherModule), without its gRPC
 * service: specs reach its parts by name, call its request handlers directly, and start and stop
 * it (or only some of its parts) themselves.
 */
export class DispatcherCopy {
  private constructor(
    private readonly context: INestApplicationContext,
    readonly config: WebhookDispatcherConfig,
    readonly pool: Pool,
  ) {}

  static async create(settings: DispatcherSettings): Promise<DispatcherCopy> {
    const context = await NestFactory.createApplicationContext(DispatcherModule.forRoot(settings), { logger: ['error', 'warn'], abortOnError: false });
    return new DispatcherCopy(context, settings.config, settings.pool);
  }

  get<T>(type: Type<T>): T {
    return this.context.get(type, { strict: false });
  }

  get scheduler(): DeliveryScheduler {
    return this.get(DeliveryScheduler);
  }
  /** How the consumer's fresh deliveries enter the copy (leased and queued, or stored for the claims). */
  get admission(): DeliveryAdmission {
    return this.get(DeliveryAdmission);
  }
  get newDeliveries(): NewDeliveries {
    return this.get(NewDeliveries);
  }
  get subscriptions(): SubscriptionStore {
    return this.get(SubscriptionStore);
  }
  get state(): SubscriptionState {
    return this.get(SubscriptionState);
  }
  get events(): SubscriptionEventsPublisher {
    return this.get(SubscriptionEventsPublisher);
  }
  get box(): SecretBox {
    return this.get(SecretBox);
  }
  get sender(): AttemptSender {
    return this.get(AttemptSender);
  }

  /** The handlers of the gateway's calls, as webhook-dispatcher.grpc.ts routes to them. */
  get requests() {
    return {
      subscriptions: this.get(SubscriptionRequests),
      recovery: this.get(RecoveryRequests),
      backfill: this.get(BackfillRequests),
      signingKeys: this.get(SigningKeyRequests),
    };
  }

  migrate(): Promise<void> {
    return this.get(DispatcherLifecycle).migrate();
  }

  /** Everything running, as the app once Nest is up: the consumer, the scheduler, the relay, the cache, retention. */
  start(): Promise<void> {
    return this.get(DispatcherLifecycle).start();
  }

  /** Stopped as the app stops, then Nest's context closed (the pool stays the spec's). */
  async stop(): Promise<void> {
    await this.get(DispatcherLifecycle).stop();
    await this.context.close();
  }

  close(): Promise<void> {
    return this.context.close();
  }
}
