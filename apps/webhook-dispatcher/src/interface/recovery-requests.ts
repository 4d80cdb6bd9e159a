import { type RecoverDeliveriesRequest, type RecoverDeliveriesResult, type RpcReply, type RpcRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { randomUUID } from 'node:crypto';
import { recoveryWindow } from '../delivery-log/domain/time-window';
import { Injectable } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { DeliveryLog } from '../delivery-log/delivery-log.store';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { activeSubscription, validation } from './rpc-problems';

/**
 * Every failed or skipped delivery of the caller's domain created in the window starts again (see
 * DeliveryLog.recover): 404 without a subscription, 409 while it is disabled (they would only be
 * skipped again). The scheduler paces them; the log shows their progress (and `recoveryId`).
 */
@Injectable()
export class RecoveryRequests {
  constructor(
    private readonly config: WebhookDispatcherConfig,
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveryLog: DeliveryLog,
    private readonly scheduler: DeliveryScheduler,
  ) {}

  recover(request: RpcRequest<RecoverDeliveriesRequest>): Promise<RpcReply<RecoverDeliveriesResult>> {
    return handleRpc(request, async ({ caller, body }) => {
      const window = recoveryWindow(body?.since, body?.until, new Date());
      if ('errors' in window) throw validation(window.errors);
      await activeSubscription((domain) => this.subscriptions.get(domain), caller.domain, 'recovering');
      const recoveryId = randomUUID();
      const deliveries = await this.deliveryLog.recover(caller.domain, window, this.config.WEBHOOK_RECOVERY_PER_SECOND, recoveryId);
      this.scheduler.wake();
      return { recoveryId, deliveries };
    });
  }
}

