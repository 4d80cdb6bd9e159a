import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/** A subscription's caps (contract: "Flow control"); null when unset. */
export interface FlowLimits {
  maxPerSecond: number | null;
  maxInFlight: number | null;
}

/** A place taken for one attempt; give it back once the attempt is over. */
export interface FlowPermit {
  release(): void;
}

/**
 * Attempts are spaced 1.05 / maxPerSecond apart: any maxPerSecond + 1 places then span 1.05 s, so
 * up to 50 ms between taking a place and the request leaving (a loaded copy's event loop: 1 % was
 * seen not to be enough) never shows as one attempt too many in a second.
 */
const RATE_MARGIN = 1.05;

/**
 * The caps of a domain, enforced across every dispatcher copy: each attempt of a capped domain
 * first takes a place in PostgreSQL (`webhook_flow_acquire`, one statement serialised per domain),
 * held until it is released or runs out (`holdMs`: a copy that dies mid-attempt lets go of it).
 */
export class FlowGate {
  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly holdMs: number,
  ) {}

  /** A permit, or the milliseconds to wait before asking again. */
  async tryAcquire(domain: string, limits: FlowLimits): Promise<FlowPermit | number> {
    const holder = randomUUID();
    const interval = limits.maxPerSecond === null ? null : (1000 * RATE_MARGIN) / limits.maxPerSecond;
    const { rows } = await this.pool.query<{ wait: number }>('select webhook_flow_acquire($1, $2, $3, $4, $5) as wait', [domain, holder, limits.maxInFlight, interval, this.holdMs]);
    const wait = Number(rows[0].wait);
    if (wait > 0) return wait;
    if (limits.maxInFlight === null) return { release: () => undefined };
    return {
      release: () => {
        this.pool.query('delete from webhook_flow_holds where holder = $1', [holder]).catch(() => undefined); // it runs out by itself otherwise
      },
    };
  }
}

/** Whether the subscription caps its attempts (then every attempt goes through the gate). */
export const isCapped = (limits: FlowLimits | undefined): limits is FlowLimits => limits !== undefined && (limits.maxPerSecond !== null || limits.maxInFlight !== null);
