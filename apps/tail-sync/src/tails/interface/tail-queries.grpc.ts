import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GrpcMethod } from '@nestjs/microservices';
import type { TailHistoryItem, TailListQuery, wire } from '@tailsync/contracts';
import { ServedCalls } from '@tailsync/service-kit';
import { GetTail, GetTailHistory, ListTails } from '../application/queries/tail-queries';
import { type GrpcCall, serveTailCall } from './tail-calls';
import { ownReply } from './tail-problems';

/** `TailSync.GetTail`, `GetTails`, `ListTails` and `GetTailHistory`: the read model's views, and a tail's own stream. */
@Controller()
export class TailQueriesGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly queries: QueryBus,
  ) {}

  @GrpcMethod('TailSync', 'GetTail')
  getTail(body: wire.TailReference__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'tail', ({ mappedId }, caller) => this.queries.execute(new GetTail(caller, mappedId)));
  }

  /** Each tail read as GetTail reads it; read together, they share one statement (CoalescedTailViews). */
  @GrpcMethod('TailSync', 'GetTails')
  getTails(body: wire.GetTailsRequest__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'replies', async ({ tails }, caller) => ({
      replies: await Promise.all(tails.map(({ mappedId }) => ownReply('tail', this.queries.execute(new GetTail(caller, mappedId))))),
    }));
  }

  @GrpcMethod('TailSync', 'ListTails')
  listTails(body: wire.ListTailsRequest__Output, _: unknown, call: GrpcCall) {
    // `status` is a string on the wire; the gateway admits only the two statuses.
    return serveTailCall(this.calls, call, body as TailListQuery, 'page', (query, caller) => this.queries.execute(new ListTails(caller, query)));
  }

  @GrpcMethod('TailSync', 'GetTailHistory')
  getTailHistory(body: wire.TailReference__Output, _: unknown, call: GrpcCall) {
    return serveTailCall(this.calls, call, body, 'history', async ({ mappedId }, caller) => ({
      items: (await this.queries.execute(new GetTailHistory(caller, mappedId))).items.map(historyItemToWire),
    }));
  }
}

function historyItemToWire({ data, ...item }: TailHistoryItem): wire.TailHistoryItem {
  return { ...item, dataJson: JSON.stringify(data) };
}
