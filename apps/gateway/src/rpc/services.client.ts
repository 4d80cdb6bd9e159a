import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { ALL_PATTERNS, CallerContext, RpcReply } from '@tailsync/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { GatewayConfig } from '../config/gateway.config';
import { InternalError, ServiceUnavailable } from '../problems/problem';

export const SERVICES_KAFKA = 'SERVICES_KAFKA';

/**
 * Request-response to tail-sync and webhook-dispatcher over Kafka. A reply that does not come
 * in time becomes a 503 problem; the request carries that deadline so a late service drops it.
 */
@Injectable()
export class ServicesClient implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(SERVICES_KAFKA) private readonly kafka: ClientKafka,
    private readonly config: GatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const pattern of ALL_PATTERNS) this.kafka.subscribeToResponseOf(pattern);
    await this.kafka.connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafka.close();
  }

  async call<T>(pattern: string, caller: CallerContext, body: unknown, timeoutMs = this.config.RPC_TIMEOUT_MS): Promise<RpcReply<T>> {
    const deadline = Date.now() + timeoutMs;
    try {
      // No message key: requests spread over the topic's partitions. A service handles one request
      // per partition at a time, so keying by domain serialised each domain's requests (requests
      // are independent; the tail writer's optimistic concurrency keeps the invariants).
      return await firstValueFrom(
        this.kafka.send<RpcReply<T>>(pattern, { value: { caller, body, deadline } }).pipe(timeout(timeoutMs)),
      );
    } catch (error) {
      if (error instanceof TimeoutError) {
        throw new ServiceUnavailable(`The service did not answer in time (${pattern.split('.')[0]}). Try again.`);
      }
      // The service failed unexpectedly; its own log has the cause.
      throw new InternalError();
    }
  }
}
