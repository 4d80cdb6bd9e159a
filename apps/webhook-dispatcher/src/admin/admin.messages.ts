import { Controller, Logger, OnModuleDestroy } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ActivityRequest, DeliveryActivityReply, RpcReply, RpcRequest, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { DeliveryActivityStore } from './delivery-activity.store';
import { ConsumerLag } from './consumer-lag';

/** The gateway's admin requests across domains: the operators' overview of deliveries. */
@Controller()
export class AdminMessages implements OnModuleDestroy {
  private readonly logger = new Logger(AdminMessages.name);

  constructor(
    private readonly store: DeliveryActivityStore,
    private readonly lag: ConsumerLag,
  ) {}

  @MessagePattern(WEBHOOK_PATTERNS.activity)
  activity(@Payload() req: RpcRequest<ActivityRequest>): Promise<RpcReply<DeliveryActivityReply>> {
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
