import { IsInt, Matches, IsOptional, IsString, IsUrl, Max, Min, MinLength, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { CommonConfig, parseTrustProxy } from '@tailsync/service-kit';

@ValidatorConstraint({ name: 'trustProxy' })
class IsTrustProxy implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTrustProxy(value) !== null;
  }
  defaultMessage(): string {
    return 'TRUST_PROXY must be a hop count or a comma list of addresses, CIDR ranges, loopback, linklocal or uniquelocal';
  }
}

export class GatewayConfig extends CommonConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  /** Operators' port: `/metrics` and the detailed readiness report (never publish it). */
  @IsInt()
  @Min(1)
  @Max(65535)
  MANAGEMENT_PORT: number = 9464;

  /** Base of the links the API hands out (problem `type`, `Location`). */
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_BASE_URL: string = 'http://localhost:3000';

  /**
   * The proxies in front of the gateway whose X-Forwarded-For (client address: logs, rate limits)
   * is believed: a hop count, or a comma list of addresses, CIDR ranges and `loopback`,
   * `linklocal`, `uniquelocal`. Unset: no proxy, the connection's own address.
   */
  @IsOptional()
  @Validate(IsTrustProxy)
  TRUST_PROXY?: string;

  /** Operator token of `/admin/*`; without it the admin API answers 404. Long enough not to be guessed. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ADMIN_TOKEN must be at least 32 characters (e.g. openssl rand -base64 32)' })
  ADMIN_TOKEN?: string;

  /** Failed sign-ins (client secret, admin token) per client id and per source address per minute, then 429. */
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_MINUTE: number = 10;

  /** Client-secret hashes (scrypt, on libuv's threads) computed at once; more wait in line. */
  @IsInt()
  @Min(1)
  AUTH_HASH_CONCURRENCY: number = 2;

  /** Token requests that may wait for a hash; beyond, 503 with Retry-After. */
  @IsInt()
  @Min(0)
  AUTH_HASH_QUEUE: number = 32;

  /** Key that signs access tokens (HS256); at least 32 characters. */
  @IsString()
  @MinLength(32)
  JWT_SECRET: string;

  @IsInt()
  @Min(60)
  ACCESS_TOKEN_TTL_SECONDS: number = 3600;

  /** A request's budget: how long its calls to the services may take before it answers 503 (each call's gRPC deadline). */
  @IsInt()
  @Min(100)
  RPC_TIMEOUT_MS: number = 10_000;

  /** Requests per minute one service account (or one client address, unauthenticated) may make. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE: number = 120_000;

  /** Largest accepted JSON body. */
  @IsString()
  BODY_LIMIT: string = '2mb';

  /** Ed25519 private key (PKCS#8 PEM) that signs the caller of every service call; the services hold its public key. */
  @IsString({ message: 'SERVICE_SIGNING_KEY (or SERVICE_SIGNING_KEY_FILE) is required: an Ed25519 private key, PKCS#8 PEM' })
  @Matches(/-----BEGIN PRIVATE KEY-----/, { message: 'SERVICE_SIGNING_KEY must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)' })
  SERVICE_SIGNING_KEY: string;

  /** tail-sync's copies, in gRPC name syntax (`dns:///tail-sync:50051`, `ipv4:127.0.0.1:50051,127.0.0.1:50061`), balanced round robin. */
  @IsString()
  TAIL_SYNC_GRPC_TARGET: string = 'dns:///127.0.0.1:50051';

  /** webhook-dispatcher's copies, in gRPC name syntax, balanced round robin. */
  @IsString()
  WEBHOOK_DISPATCHER_GRPC_TARGET: string = 'dns:///127.0.0.1:50052';
}
