import type { PingReply } from '@tailsync/contracts';
import { ReadinessCheck } from '@tailsync/service-kit';
import type { BudgetedCaller } from '../services/service-channel';

const PROBE_BUDGET_MS = 2_500;

/** A service counts as ready when a copy answers over its gRPC channel and that copy's own dependencies are up. */
export class ServiceReadiness implements ReadinessCheck {
  constructor(
    readonly name: string,
    private readonly service: { ping(caller: BudgetedCaller): Promise<PingReply> },
  ) {}

  async check(): Promise<void> {
    const reply = await this.service.ping({ domain: 'health', source: 'gateway', requestId: 'readiness', deadline: Date.now() + PROBE_BUDGET_MS });
    const down = Object.entries(reply.checks).filter(([, s]) => s === 'down').map(([n]) => n);
    if (down.length > 0) throw new Error(`${this.name} reports down: ${down.join(', ')}`);
  }
}
