import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ActivityRequest, DeliveryActivityReply, RpcReply, RpcRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { DeliveryActivityStore } from '../admin/delivery-activity.store';
import { ConsumerLag } from '../admin/consumer-lag';

/** The gateway's admin requests across domains: the operators' overview of deliveries. */
@Injectable()
export class AdminRequests implements OnModuleDestroy {
  private readonly logger = new Logger(AdminRequests.name);

  constructor(
    private readonly store: DeliveryActivityStore,
    private readonly lag: ConsumerLag,
  ) {}

  activity(req: RpcRequest<ActivityRequest>): Promise<RpcReply<DeliveryActivityReply>> {
    return handleRpc(req, async ({ body }) => {
      const since = new Date(body.since);
      const [eventsConsumed, outcomes, attention, consumerLag] = await Promise.all([
        this.store.consumedPerMinute(since),
        this.store.outcomesPerMinute(since),
        this.store.attention(),
        // The overview still answers when the broker does not: the lag is then unknown.
        this.lag.messages().catch((error: unknown) => {
          this.logger.warn(`consumer lag unknown: ${(error as Error).message}`);
          return null;
        }),
      ]);
      return { eventsConsumed, ...outcomes, attention, consumerLag };
    });
  }

  onModuleDestroy(): Promise<void> {
    return this.lag.close();
  }
}
