import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { ServerUnaryCall } from '@grpc/grpc-js';
import {
  CreateOrMapOutcome, fieldErrorsToWire, mapReply, ok, TailHistoryItem, TailListQuery, type wire,
} from '@tailsync/contracts';
import { INSTANCE_ID, pingReply, READINESS_CHECKS, ReadinessCheck, ServedCalls } from '@tailsync/service-kit';
import { AdminRequests } from './admin/interface/admin-requests';
import { TailRequests } from './tails/interface/tail-requests';

type Call = ServerUnaryCall<unknown, unknown>;

/**
 * Where the gateway's requests enter tail-sync: the `TailSync` service of
 * libs/contracts/proto/tailsync/v1/tail_sync.proto, each method handed to its request handler.
 */
@Controller()
export class TailSyncGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly tails: TailRequests,
    private readonly admin: AdminRequests,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(INSTANCE_ID) private readonly instance: string,
  ) {}

  @GrpcMethod('TailSync', 'Ping')
  ping(body: wire.PingRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, async () => ok(await pingReply('tail-sync', this.instance, this.checks)));
  }

  @GrpcMethod('TailSync', 'CreateOrMap')
  createOrMap(body: wire.CreateOrMapRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'outcomes', async (request) =>
      mapReply(await this.tails.createOrMap(request), ({ outcomes }) => ({ outcomes: outcomes.map(outcomeToWire) })),
    );
  }

  @GrpcMethod('TailSync', 'Deactivate')
  deactivate(body: wire.TailReference__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'tail', (request) => this.tails.deactivate(request));
  }

  @GrpcMethod('TailSync', 'Reactivate')
  reactivate(body: wire.TailReference__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'tail', (request) => this.tails.reactivate(request));
  }

  @GrpcMethod('TailSync', 'ChangeTailNumber')
  changeTailNumber(body: wire.ChangeTailNumberRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'tail', (request) => this.tails.changeTailNumber(request));
  }

  @GrpcMethod('TailSync', 'GetTail')
  getTail(body: wire.TailReference__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'tail', (request) => this.tails.get(request));
  }

  @GrpcMethod('TailSync', 'ListTails')
  listTails(body: wire.ListTailsRequest__Output, _: unknown, call: Call) {
    // `status` is a string on the wire; the gateway admits only the two statuses.
    return this.calls.reply(call, body as TailListQuery, 'page', (request) => this.tails.list(request));
  }

  @GrpcMethod('TailSync', 'GetTailHistory')
  getTailHistory(body: wire.TailReference__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'history', async (request) =>
      mapReply(await this.tails.history(request), ({ items }) => ({ items: items.map(historyItemToWire) })),
    );
  }

  @GrpcMethod('TailSync', 'CountTails')
  countTails(body: wire.CountTailsRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, (request) => this.admin.countByDomain(request));
  }

  @GrpcMethod('TailSync', 'ReadActivity')
  readActivity(body: wire.ActivityRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, (request) => this.admin.activity(request));
  }
}

function outcomeToWire(outcome: CreateOrMapOutcome): wire.CreateOrMapOutcome {
  return outcome.outcome === 'invalid'
    ? { outcome: outcome.outcome, fieldErrors: fieldErrorsToWire(outcome.fieldErrors) }
    : { outcome: outcome.outcome, tailId: outcome.tailId };
}

function historyItemToWire({ data, ...item }: TailHistoryItem): wire.TailHistoryItem {
  return { ...item, dataJson: JSON.stringify(data) };
}
