import { Injectable, Inject } from '@nestjs/common';
import { type RecoverDeliveriesRequest, type RecoverDeliveriesResult, type RpcReply, type RpcRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { randomUUID } from 'node:crypto';
import { recoveryWindow } from '../delivery/domain/time-window';
import { DispatcherRuntime } from '../dispatcher.runtime';
import { activeSubscription, validation } from './rpc-problems';

/**
 * Every failed or skipped delivery of the caller's domain created in the window starts again (see
 * DeliveryStore.recover): 404 without a subscription, 409 while it is disabled (they would only be
 * skipped again). The scheduler paces them; the log shows their progress (and `recoveryId`).
 */
@Injectable()
export class RecoveryRequests {
  constructor(@Inject(DispatcherRuntime) private readonly runtime: DispatcherRuntime) {}

  recover(request: RpcRequest<RecoverDeliveriesRequest>): Promise<RpcReply<RecoverDeliveriesResult>> {
    return handleRpc(request, async ({ caller, body }) => {
      const window = recoveryWindow(body?.since, body?.until, new Date());
      if ('errors' in window) throw validation(window.errors);
      await activeSubscription((domain) => this.runtime.subscriptions.get(domain), caller.domain, 'recovering');
      const recoveryId = randomUUID();
      const deliveries = await this.runtime.deliveries.recover(caller.domain, window, this.runtime.config.WEBHOOK_RECOVERY_PER_SECOND, recoveryId);
      this.runtime.scheduler.wake();
      return { recoveryId, deliveries };
    });
  }
}

