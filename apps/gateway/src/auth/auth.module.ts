import { createSecretKey } from 'node:crypto';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { ThrottlerModule } from '@nestjs/throttler';
import { CallerThrottlerGuard } from './interface/caller-throttler.guard';
import { SlidingWindowThrottlerStorage } from './infrastructure/sliding-window-throttler.storage';
import { GatewayConfig } from '../config/gateway.config';
import { AdminTokenGuard } from './interface/admin-token.guard';
import { BearerGuard } from './interface/bearer.guard';
import { OAuthTokenController } from './interface/oauth-token.controller';
import { ServiceAccountsController } from './interface/service-accounts.controller';
import { ServiceAccountsStore } from './infrastructure/service-accounts.store';
import { RevokedAccounts } from './application/revoked-accounts';
import { TOKEN_REVOCATIONS } from './application/revocation-ports';
import { FailureLimit } from './infrastructure/failure-limit';
import { HashingPool } from './application/hashing-pool';
import { ConsoleSessions } from './domain/console-session';
import { ActiveSessions } from './infrastructure/active-sessions';

/** Service accounts, OAuth2 client credentials, and the bearer check on every other endpoint. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [GatewayConfig],
      useFactory: (config: GatewayConfig) => ({
        throttlers: [{ ttl: 60_000, limit: config.RATE_LIMIT_PER_MINUTE }],
        storage: new SlidingWindowThrottlerStorage(),
      }),
    }),
    JwtModule.registerAsync({
      inject: [GatewayConfig],
      // A secret KeyObject, not the string: given a string, jsonwebtoken first tries to parse it as a
      // PEM public key (createPublicKey, which throws) on every verify.
      // @nestjs/jwt passes the secret through untouched; only its typings say string | Buffer.
      useFactory: (config: GatewayConfig) => ({
        secret: createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8')) as unknown as string,
        signOptions: { algorithm: 'HS256' },
      }),
    }),
  ],
  controllers: [ServiceAccountsController, OAuthTokenController],
  providers: [
    ServiceAccountsStore,
    { provide: TOKEN_REVOCATIONS, useExisting: ServiceAccountsStore },
    RevokedAccounts,
    FailureLimit,
    HashingPool,
    AdminTokenGuard,
    // Keyed by the admin token; without one the guard answers 404 before any session is read.
    { provide: ConsoleSessions, inject: [GatewayConfig], useFactory: (config: GatewayConfig) => new ConsoleSessions(config.ADMIN_TOKEN ?? '') },
    ActiveSessions,
    // Order matters: the bearer guard identifies the caller the rate limit counts against.
    { provide: APP_GUARD, useClass: BearerGuard },
    { provide: APP_GUARD, useClass: CallerThrottlerGuard },
  ],
  exports: [ServiceAccountsStore, AdminTokenGuard, ConsoleSessions, ActiveSessions, FailureLimit],
})
export class AuthModule {}
