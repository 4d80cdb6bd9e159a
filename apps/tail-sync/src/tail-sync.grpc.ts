import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { ok, type wire } from '@tailsync/contracts';
import { INSTANCE_ID, pingReply, READINESS_CHECKS, ReadinessCheck, ServedCalls } from '@tailsync/service-kit';
import { AdminRequests } from './admin/interface/admin-requests';

type Call = ServerUnaryCall<unknown, unknown>;

/**
 * The methods of the `TailSync` service (libs/contracts/proto/tailsync/v1/tail_sync.proto) that
 * are not about one domain's tails: readiness and the operators' counts. The tails' methods are
 * served beside their commands (`tails/commands/<command>/<command>.grpc.ts`) and queries (`tails/interface/`).
 */
@Controller()
export class TailSyncGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly admin: AdminRequests,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(INSTANCE_ID) private readonly instance: string,
  ) {}

  @GrpcMethod('TailSync', 'Ping')
  ping(body: wire.PingRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, async () => ok(await pingReply('tail-sync', this.instance, this.checks)));
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
