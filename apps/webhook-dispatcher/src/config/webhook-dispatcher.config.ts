import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { Transform } from 'class-transformer';
import { CalledServiceConfig } from '@tailsync/service-kit';
import { MAX_RETRY_DELAY_MS, parseRetryDelays } from '../attempts/domain/retry-policy';
import { MAX_RECOVERY_WINDOW_DAYS } from '../delivery-log/domain/time-window';
import { parseSealingKeys } from '../sealing/sealing-keys';

@ValidatorConstraint({ name: 'sealingKeys' })
class IsSealingKeys implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseSealingKeys(value) !== null;
  }
  defaultMessage(): string {
    return 'WEBHOOK_SECRET_KEY must be one or more distinct keys, each the base64 of exactly 32 random bytes (AES-256-GCM), separated by commas or new lines';
  }
}

@ValidatorConstraint({ name: 'retryDelays' })
class IsRetryDelays implements ValidatorConstraintInterface {
  private message = '';
  validate(value: unknown): boolean {
    try {
      parseRetryDelays(value === undefined ? undefined : String(value));
      return true;
    } catch (error) {
      this.message = (error as Error).message;
      return false;
    }
  }
  defaultMessage(): string {
    return this.message || 'WEBHOOK_RETRY_DELAYS_MS must be a comma list of non-negative integers';
  }
}

// Reads the raw environment text: implicit conversion would make Boolean('false') true.
const toBoolean = ({ obj, key, value }: { obj: Record<string, unknown>; key: string; value: unknown }) => {
  const raw = obj[key];
  if (typeof raw !== 'string') return value;
  if (/^(true|1|yes)$/i.test(raw.trim())) return true;
  if (/^(false|0|no)$/i.test(raw.trim())) return false;
  return raw;
};

export class WebhookDispatcherConfig extends CalledServiceConfig {
  /** Port of this process's health and metrics endpoints. */
  @IsInt()
  @Min(1)
  @Max(65535)
  WEBHOOK_DISPATCHER_HTTP_PORT: number = 3002;

  /** Port of this process's gRPC server, where the gateway's requests arrive. */
  @IsInt()
  @Min(1)
  @Max(65535)
  WEBHOOK_DISPATCHER_GRPC_PORT: number = 50052;

  /**
   * AES-256-GCM keys (base64 of 32 bytes each) that seal the shared secrets and signing keys at
   * rest: the first seals, the others only unseal until `rewrap-sealed-values` has moved every
   * value to the first. Only the dispatcher holds them.
   */
  @IsString()
  @Validate(IsSealingKeys)
  WEBHOOK_SECRET_KEY: string;

  /** Lifts the SSRF guard (loopback and private subscriber URLs) for local use and tests. */
  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean = false;

  /** Comma list of retry delays in ms (N delays give N + 1 attempts); default 2 s … 256 s. */
  @IsOptional()
  @Matches(/^[\d\s,]*$/, { message: 'WEBHOOK_RETRY_DELAYS_MS must be a comma list of non-negative integers (ms)' })
  @Validate(IsRetryDelays)
  WEBHOOK_RETRY_DELAYS_MS?: string;

  /** The longest a receiver's Retry-After (on 429 or 503) may delay the next attempt; default the schedule's longest delay. */
  @IsInt()
  @Min(0)
  @Max(MAX_RETRY_DELAY_MS)
  WEBHOOK_RETRY_AFTER_MAX_MS: number = 256_000;

  /** Time limit of one attempt (connect, send, response headers and body). */
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_ATTEMPT_TIMEOUT_MS: number = 10_000;

  /** Attempts this copy runs at once, over every domain. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  WEBHOOK_MAX_CONCURRENCY: number = 256;

  /** Attempts this copy runs at once for any one domain (a hanging receiver holds at most this many). */
  @IsInt()
  @Min(1)
  @Max(1_000)
  WEBHOOK_DOMAIN_CONCURRENCY: number = 16;

  /** How often the scheduler looks for due attempts when nothing woke it. */
  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_POLL_INTERVAL_MS: number = 100;

  /** After a subscription is saved with a new secret, the previous one still signs (and is shown) this long. */
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  WEBHOOK_SECRET_GRACE_SECONDS: number = 86_400;

  /** A subscription is disabled (`failing`) when at least this many deliveries in a row failed… */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  WEBHOOK_DISABLE_AFTER_FAILURES: number = 20;

  /** …and the first of them was created at least this many hours ago (fractions allowed, for tests). */
  @IsNumber()
  @Min(0)
  @Max(8760)
  WEBHOOK_DISABLE_AFTER_HOURS: number = 120;

  /** A recovery restarts at most this many deliveries per second per domain (live events go first). */
  @IsInt()
  @Min(1)
  @Max(10_000)
  WEBHOOK_RECOVERY_PER_SECOND: number = 50;

  /** Backfill jobs running at once across every dispatcher copy; the others wait, queued. */
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_BACKFILL_CONCURRENCY: number = 2;

  /**
   * A backfill job stores its deliveries at most this far ahead of their pace, then waits until
   * half of that is left: a long backfill keeps a bounded stretch in the database, and its writes
   * follow its deliveries instead of competing with every domain's at once (fractions allowed, for tests).
   */
  @IsNumber()
  @Min(0.5)
  @Max(3600)
  WEBHOOK_BACKFILL_AHEAD_SECONDS: number = 60;

  /** A backfill job whose copy has not renewed its lease for this long (it died) is resumed by another copy (fractions allowed, for tests). */
  @IsNumber()
  @Min(0.5)
  @Max(600)
  WEBHOOK_BACKFILL_LEASE_SECONDS: number = 30;

  /**
   * Deliveries and their attempts are kept this many days, then dropped a whole week at a time (a
   * week holding a pending delivery stays until it ends). A recovery may ask for deliveries up to
   * 31 days old, so less is refused.
   */
  @IsInt()
  @Min(MAX_RECOVERY_WINDOW_DAYS, {
    message: `WEBHOOK_LOG_RETENTION_DAYS must be at least ${MAX_RECOVERY_WINDOW_DAYS}: a recovery may restart deliveries up to ${MAX_RECOVERY_WINDOW_DAYS} days old`,
  })
  @Max(36_500)
  WEBHOOK_LOG_RETENTION_DAYS: number = 35;

  /** Consumer group of the event consumer (copies of the dispatcher share it). */
  @IsString()
  WEBHOOK_EVENTS_GROUP_ID: string = 'webhook-dispatcher-events';
}
