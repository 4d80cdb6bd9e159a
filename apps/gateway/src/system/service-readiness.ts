import type { PingReply } from '@tailsync/contracts';
import { ReadinessCheck } from '@tailsync/service-kit';
import type { BudgetedCaller } from '../services/infrastructure/service-channel';

const PROBE_BUDGET_MS = 2_500;

/**
 * A service counts as ready when a copy answers over its gRPC channel and the dependencies its
 * requests need are up. Its Kafka is not one of them: requests never wait for the broker (events
 * are relayed from the stores once it is back), so a broker restart leaves the API in rotation.
 */
export class ServiceReadiness implements ReadinessCheck {
  constructor(
    readonly name: string,
    private readonly service: { ping(caller: BudgetedCaller): Promise<PingReply> },
  ) {}

  async check(): Promise<void> {
    const reply = await this.service.ping({ domain: 'health', source: 'gateway', role: 'public', requestId: 'readiness', deadline: Date.now() + PROBE_BUDGET_MS });
    const down = Object.entries(reply.checks).filter(([name, s]) => s === 'down' && name !== 'kafka').map(([n]) => n);
    if (down.length > 0) throw new Error(`${this.name} reports down: ${down.join(', ')}`);
  }
}
