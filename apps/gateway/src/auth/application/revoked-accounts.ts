import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { GatewayConfig } from '../../config/gateway.config';
import { ServiceUnavailable } from '../../problems/domain/problem';
import { TOKEN_REVOCATIONS, type TokenRevocations } from './revocation-ports';

/** Well under the contract's 5 s, leaving room for a slow query. */
export const REVOCATION_REFRESH_MS = 2_000;
/** Older than this, the list is not trusted: authenticated calls answer 503 until it is refreshed. */
export const REVOCATION_STALE_MS = 15_000;

/**
 * Per client id, the instant before which its access tokens are refused (set by RotateSecret,
 * Disable and Delete; Enable does not clear it), read again from the database every
 * REVOCATION_REFRESH_MS by every gateway copy: the bearer check stays a map lookup (no database
 * round trip per request), and a change made through any copy reaches all of them within 5 s.
 */
@Injectable()
export class RevokedAccounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RevokedAccounts.name);
  private validAfter = new Map<string, number>();
  private refreshedAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(TOKEN_REVOCATIONS) private readonly store: TokenRevocations,
    private readonly config: GatewayConfig,
  ) {}

  // After every module's init: the store's migration adds the column first.
  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((error) => this.logger.warn(`revocation list not refreshed: ${(error as Error).message}`)), REVOCATION_REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Whether a token of `clientId` issued at `issuedAtMs` is refused; 503 rather than trust a list not refreshed for REVOCATION_STALE_MS. */
  isRevoked(clientId: string, issuedAtMs: number): boolean {
    if (Date.now() - this.refreshedAt > REVOCATION_STALE_MS) throw new ServiceUnavailable('The gateway cannot check access tokens right now; try again shortly.');
    const after = this.validAfter.get(clientId);
    return after !== undefined && issuedAtMs <= after;
  }

  /** The copy that made the change refuses the account's earlier tokens at once. */
  revokeBefore(clientId: string, instantMs: number): void {
    this.validAfter.set(clientId, Math.max(instantMs, this.validAfter.get(clientId) ?? 0));
  }

  private async refresh(): Promise<void> {
    const rows = await this.store.tokensValidAfter(this.config.ACCESS_TOKEN_TTL_SECONDS);
    this.validAfter = new Map(rows.map((row) => [row.clientId, row.validAfterMs]));
    this.refreshedAt = Date.now();
  }
}
