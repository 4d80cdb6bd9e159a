import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { GrpcMethod } from '@nestjs/microservices';
import type { wire } from '@tailsync/contracts';
import { ServedCalls } from '@tailsync/service-kit';
import { type GrpcCall, serveTailCall } from '../../interface/tail-calls';
import { ChangeTailNumber, DeactivateTail, ReactivateTail } from './change-tail.commands';

/** `TailSync.Deactivate`, `Reactivate` and `ChangeTailNumber`: each a command on the tail the caller maps, answered with its view. */
@Controller()
export class ChangeTailGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly commands: CommandBus,
  ) {}

  @GrpcMethod('TailSync', 'Deactivate')
  deactivate(body: wire.TailReference__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'tail', ({ mappedId }, caller) => this.commands.execute(new DeactivateTail(caller, mappedId)));
  }

  @GrpcMethod('TailSync', 'Reactivate')
  reactivate(body: wire.TailReference__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'tail', ({ mappedId }, caller) => this.commands.execute(new ReactivateTail(caller, mappedId)));
  }

  @GrpcMethod('TailSync', 'ChangeTailNumber')
  changeTailNumber(body: wire.ChangeTailNumberRequest__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'tail', ({ mappedId, newTailNumber }, caller) =>
      this.commands.execute(new ChangeTailNumber(caller, mappedId, newTailNumber)),
    );
  }
}
