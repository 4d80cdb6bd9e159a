import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ActivityRequest, RpcReply, RpcRequest, TailActivityReply, TailCountsReply, TailCountsRequest } from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { CountTails } from '../application/count-tails.query';
import { ReadActivity } from '../application/read-activity.query';

/** The gateway's admin requests that span domains (operators only; the gateway checks the admin token). */
@Injectable()
export class AdminRequests {
  constructor(private readonly queries: QueryBus) {}

  countByDomain(req: RpcRequest<TailCountsRequest>): Promise<RpcReply<TailCountsReply>> {
    return handleRpc(req, ({ body }) => this.queries.execute(new CountTails(body.domains)));
  }

  activity(req: RpcRequest<ActivityRequest>): Promise<RpcReply<TailActivityReply>> {
    return handleRpc(req, ({ body }) => this.queries.execute(new ReadActivity(new Date(body.since))));
  }
}
