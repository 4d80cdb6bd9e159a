import type { BackfillDeliveriesRequest, BackfillDeliveriesResult, RpcReply, RpcRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { randomUUID } from 'node:crypto';
import { backfillSince } from '../delivery-log/domain/time-window';
import { Injectable } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { TopicRereader } from '../intake/topic-rereader';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { activeSubscription, validation } from './rpc-problems';

/** Answer before the gateway gives up: reading the topic may take at most this long, cut to the call's deadline. */
const READ_LIMIT_MS = 60_000;

/**
 * Sends the events still on the input topic from `since` that the domain has no delivery for
 * (TopicRereader, NewDeliveries.insertBackfill): each gets a delivery paced at the recovery rate,
 * behind live events. 404 without a subscription, 409 while it is disabled.
 */
@Injectable()
export class BackfillRequests {
  constructor(
    private readonly config: WebhookDispatcherConfig,
    private readonly subscriptions: SubscriptionStore,
    private readonly rereader: TopicRereader,
    private readonly newDeliveries: NewDeliveries,
    private readonly scheduler: DeliveryScheduler,
  ) {}

  backfill(request: RpcRequest<BackfillDeliveriesRequest>): Promise<RpcReply<BackfillDeliveriesResult>> {
    return handleRpc(request, async ({ caller, body, deadline }) => {
      const since = backfillSince(body?.since, new Date());
      if ('errors' in since) throw validation(since.errors);
      await activeSubscription((domain) => this.subscriptions.get(domain), caller.domain, 'backfilling');
      const readUntil = Math.min(Date.now() + READ_LIMIT_MS, deadline === undefined ? Infinity : deadline - 500);
      const events = await this.rereader.read(caller.domain, since, readUntil);
      const backfillId = randomUUID();
      const count = await this.newDeliveries.insertBackfill(events, this.config.WEBHOOK_RECOVERY_PER_SECOND, backfillId);
      this.scheduler.wake();
      return { backfillId, events: count };
    });
  }
}
