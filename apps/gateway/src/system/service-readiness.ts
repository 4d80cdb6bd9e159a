import { CallerContext, PingReply } from '@tailsync/contracts';
import { ReadinessCheck } from '@tailsync/service-kit';
import { ServicesClient } from '../rpc/services.client';

const PROBE: CallerContext = { domain: 'health', source: 'gateway', requestId: 'readiness' };

/** A service counts as ready when it answers over Kafka and its own dependencies are up. */
export class ServiceReadiness implements ReadinessCheck {
  constructor(
    readonly name: string,
    private readonly pattern: string,
    private readonly services: ServicesClient,
  ) {}

  async check(): Promise<void> {
    const reply = await this.services.call<PingReply>(this.pattern, PROBE, {}, 2500);
    if (!reply.ok) throw new Error(reply.problem.detail ?? 'not ready');
    const down = Object.entries(reply.result.checks).filter(([, s]) => s === 'down').map(([n]) => n);
    if (down.length > 0) throw new Error(`${this.name} reports down: ${down.join(', ')}`);
  }
}
