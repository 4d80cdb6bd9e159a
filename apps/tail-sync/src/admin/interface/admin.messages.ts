import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ActivityRequest, RpcReply, RpcRequest, TAIL_PATTERNS, TailActivityReply, TailCountsReply, TailCountsRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { CountTails } from '../application/count-tails.query';
import { ReadActivity } from '../application/read-activity.query';

/** The gateway's admin requests that span domains (operators only; the gateway checks the admin token). */
@Controller()
export class AdminMessages {
  constructor(private readonly queries: QueryBus) {}

  @MessagePattern(TAIL_PATTERNS.countByDomain)
  countByDomain(@Payload() req: RpcRequest<TailCountsRequest>): Promise<RpcReply<TailCountsReply>> {
    return handleRpc(req, ({ body }) => this.queries.execute(new CountTails(body.domains)));
  }

  @MessagePattern(TAIL_PATTERNS.activity)
  activity(@Payload() req: RpcRequest<ActivityRequest>): Promise<RpcReply<TailActivityReply>> {
    return handleRpc(req, ({ body }) => this.queries.execute(new ReadActivity(new Date(body.since))));
  }
}
