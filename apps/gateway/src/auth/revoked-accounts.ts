import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceAccountsStore } from './service-accounts.store';

/** Well under the contract's 5 s, leaving room for a slow query. */
export const REVOCATION_REFRESH_MS = 2_000;

/**
 * The ids of disabled and deleted service accounts, read again from the database every
 * REVOCATION_REFRESH_MS by every gateway copy: the bearer check stays a set lookup (no database
 * round trip per request), and a change made through any copy reaches all of them within 5 s.
 */
@Injectable()
export class RevokedAccounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RevokedAccounts.name);
  private ids = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: ServiceAccountsStore,
    private readonly config: GatewayConfig,
  ) {}

  // After every module's init: the store's migration adds the status column first.
  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((error) => this.logger.warn(`revocation list not refreshed: ${(error as Error).message}`)), REVOCATION_REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  has(clientId: string): boolean {
    return this.ids.has(clientId);
  }

  /** The copy that made the change refuses the account's tokens at once. */
  add(clientId: string): void {
    this.ids.add(clientId);
  }

  remove(clientId: string): void {
    this.ids.delete(clientId);
  }

  private async refresh(): Promise<void> {
    this.ids = new Set(await this.store.revokedIds(this.config.ACCESS_TOKEN_TTL_SECONDS));
  }
}
