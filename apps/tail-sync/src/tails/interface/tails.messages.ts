import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ChangeTailNumberRequest, CreateOrMapReply, CreateOrMapRequest, RpcReply, RpcRequest, TAIL_PATTERNS, TailByMappedIdRequest,
  TailHistoryItem, TailListPage, TailListQuery, TailView,
} from '@tailsync/contracts';
import { handleRpc } from '@tailsync/service-kit';
import { CreateOrMapTails } from '../application/commands/create-or-map-tails.command';
import { ChangeTailNumber, DeactivateTail, ReactivateTail } from '../application/commands/tail-state-commands';
import { GetTail, GetTailHistory, ListTails } from '../application/queries/tail-queries';
import { asProblem } from './tail-problems';

/** Where the gateway's tail requests enter tail-sync (Kafka request-response). */
@Controller()
export class TailsMessages {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @MessagePattern(TAIL_PATTERNS.createOrMap)
  createOrMap(@Payload() req: RpcRequest<CreateOrMapRequest>): Promise<RpcReply<CreateOrMapReply>> {
    return handleRpc(req, async ({ caller, body }) => ({
      outcomes: await this.commands.execute(new CreateOrMapTails(caller, body.tails)).catch(asProblem),
    }));
  }

  @MessagePattern(TAIL_PATTERNS.deactivate)
  deactivate(@Payload() req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new DeactivateTail(caller, body.tailId)).catch(asProblem));
  }

  @MessagePattern(TAIL_PATTERNS.reactivate)
  reactivate(@Payload() req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.commands.execute(new ReactivateTail(caller, body.tailId)).catch(asProblem));
  }

  @MessagePattern(TAIL_PATTERNS.changeTailNumber)
  changeTailNumber(@Payload() req: RpcRequest<ChangeTailNumberRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) =>
      this.commands.execute(new ChangeTailNumber(caller, body.tailId, body.newTailNumber)).catch(asProblem),
    );
  }

  @MessagePattern(TAIL_PATTERNS.get)
  get(@Payload() req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<TailView>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new GetTail(caller, body.tailId)).catch(asProblem));
  }

  @MessagePattern(TAIL_PATTERNS.list)
  list(@Payload() req: RpcRequest<TailListQuery>): Promise<RpcReply<TailListPage>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new ListTails(caller, body)).catch(asProblem));
  }

  @MessagePattern(TAIL_PATTERNS.history)
  history(@Payload() req: RpcRequest<TailByMappedIdRequest>): Promise<RpcReply<{ items: TailHistoryItem[] }>> {
    return handleRpc(req, ({ caller, body }) => this.queries.execute(new GetTailHistory(caller, body.tailId)).catch(asProblem));
  }
}
