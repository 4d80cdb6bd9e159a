import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PingReply, RpcReply, RpcRequest, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import { handleRpc, INSTANCE_ID, pingReply, READINESS_CHECKS, ReadinessCheck } from '@tailsync/service-kit';

/** Answers the gateway's readiness probe over Kafka. */
@Controller()
export class PingMessages {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(INSTANCE_ID) private readonly instance: string,
  ) {}

  @MessagePattern(WEBHOOK_PATTERNS.ping)
  ping(@Payload() request: RpcRequest<unknown>): Promise<RpcReply<PingReply>> {
    return handleRpc(request, () => pingReply('webhook-dispatcher', this.instance, this.checks));
  }
}
