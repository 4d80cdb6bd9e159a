import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ChangeTailNumberRequest, CreateOrMapReply, CreateOrMapRequest, RpcReply, RpcRequest, TailByMappedIdRequest,
  TailHistoryItem, TailListPage, TailListQuery, TailView,
} from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
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
      outcomes: await this.commands.execute(new CreateOrMapTails(caller, body.tails)).catch(asProblem),
    }));
  }

  deactivate(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new DeactivateTail(caller, body.tailId)).catch(asProblem));
  }

  reactivate(req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new ReactivateTail(caller, body.tailId)).catch(asProblem));
  }

  changeTailNumber(req: RpcRequest<ChangeTailNumberRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) =>
      this.commands.execute(new ChangeTailNumber(caller, body.tailId, body.newTailNumber)).catch(asProblem),
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
