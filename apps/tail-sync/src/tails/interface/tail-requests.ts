import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ChangeTailNumberRequest, CreateOrMapReply, CreateOrMapRequest, RpcReply, RpcRequest, TailByMappedIdRequest,
  TailHistoryItem, TailListPage, TailListQuery, TailView,
} from '@tailsync/contracts';
import { handleRpc, traceparentToCarry } from '@tailsync/service-kit';
import type { CallerContext } from '../application/caller-context';
import { CreateOrMapTails } from '../application/commands/create-or-map-tails.command';
import { ChangeTailNumber, DeactivateTail, ReactivateTail } from '../application/commands/tail-state-commands';
import { GetTail, GetTailHistory, ListTails } from '../application/queries/tail-queries';
import { asProblem } from './tail-problems';

/** The gateway's tail requests, each handed to its command or query (tail-sync.grpc.ts receives them). */
@Injectable()
export class TailRequests {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  createOrMap(req: RpcRequest<CreateOrMapRequest>): Promise<RpcReply<CreateOrMapReply>> {
    return handleRpc(req, async ({ caller, body }) => ({
      outcomes: await this.commands.execute(new CreateOrMapTails(acting(caller), body.tails)).catch(asProblem),
    }));
  }

  deactivate(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new DeactivateTail(acting(caller), body.tailId)).catch(asProblem));
  }

  reactivate(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new ReactivateTail(acting(caller), body.tailId)).catch(asProblem));
  }

  changeTailNumber(req: RpcRequest<ChangeTailNumberRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) =>
      this.commands.execute(new ChangeTailNumber(acting(caller), body.tailId, body.newTailNumber)).catch(asProblem),
    );
  }

  get(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new GetTail(caller, body.tailId)).catch(asProblem));
  }

  list(req: RpcRequest<TailListQuery>): Promise<RpcReply<TailListPage>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new ListTails(caller, body)).catch(asProblem));
  }

  history(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<{ items: TailHistoryItem[] }>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new GetTailHistory(caller, body.tailId)).catch(asProblem));
  }
}

/** The caller of a command: its events keep the request's trace context (the span recorded now, when tracing is on). */
function acting(caller: RpcRequest<unknown>['caller']): CallerContext {
  const traceparent = traceparentToCarry(caller);
  return traceparent === undefined ? { domain: caller.domain, source: caller.source } : { domain: caller.domain, source: caller.source, traceparent };
}
