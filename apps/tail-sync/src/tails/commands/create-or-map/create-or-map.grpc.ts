import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { GrpcMethod } from '@nestjs/microservices';
import { type CreateOrMapOutcome, fieldErrorsToWire, type TailSubmission, type wire } from '@tailsync/contracts';
import { ServedCalls, validTraceparent } from '@tailsync/service-kit';
import { type GrpcCall, serveTailCall } from '../../interface/tail-calls';
import { CreateOrMapTails } from './create-or-map.command';

/** `TailSync.CreateOrMap` (libs/contracts/proto/tailsync/v1/tail_sync.proto): the submissions become one command. */
@Controller()
export class CreateOrMapGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly commands: CommandBus,
  ) {}

  @GrpcMethod('TailSync', 'CreateOrMap')
  createOrMap(body: wire.CreateOrMapRequest__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'outcomes', async ({ tails }, caller) => ({
      outcomes: (await this.commands.execute(new CreateOrMapTails(caller, tails.map(submission)))).map(outcomeToWire),
    }));
  }
}

/** A submitted tail; its own trace context (a shared call's) only when well-formed, as the call's is. */
function submission({ traceparent, ...tail }: wire.TailSubmission__Output): TailSubmission {
  const valid = validTraceparent(traceparent);
  return valid === undefined ? tail : { ...tail, traceparent: valid };
}

function outcomeToWire(outcome: CreateOrMapOutcome): wire.CreateOrMapOutcome {
  return outcome.outcome === 'invalid'
    ? { outcome: outcome.outcome, fieldErrors: fieldErrorsToWire(outcome.fieldErrors) }
    : { outcome: outcome.outcome, tailId: outcome.tailId };
}
