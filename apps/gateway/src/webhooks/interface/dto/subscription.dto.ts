import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageLimitQuery } from '../../../http/page-limit.query';
import {
  ArrayMaxSize, ArrayNotEmpty, IsArray, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min,
  ValidateBy, ValidateIf, type ValidationOptions,
} from 'class-validator';
import { DELIVERY_ORDERINGS, DELIVERY_STATUSES, RISK_ASSESSMENT_EXECUTED, SIGNATURE_SCHEMES, WEBHOOK_EVENT_NAMES, type DeliveryOrdering, type DeliveryStatus, type SignatureScheme } from '@tailsync/contracts';

/** An absolute http or https URL (the dispatcher then applies the SSRF rules under `url`). */
function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          try {
            const url = new URL(value);
            return url.protocol === 'http:' || url.protocol === 'https:';
          } catch {
            return false;
          }
        },
      },
    },
    options,
  );
}

export class SubscriptionDto {
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_NAMES, minItems: 1, maxItems: 10, example: [RISK_ASSESSMENT_EXECUTED], description: `Events to be notified of: ${WEBHOOK_EVENT_NAMES.join(', ')}.` })
  @IsDefined({ message: 'eventNames is required.' })
  @IsArray({ message: 'eventNames must be an array.' })
  @ArrayNotEmpty({ message: 'eventNames must not be empty.' })
  @ArrayMaxSize(10, { message: 'eventNames lists too many names.' })
  @IsIn([...WEBHOOK_EVENT_NAMES], { each: true, message: `eventNames may only contain ${WEBHOOK_EVENT_NAMES.join(', ')}.` })
  eventNames: string[];

  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://hooks.example.com/tailsync', description: 'Absolute http/https URL with a publicly routable host; redirects are not followed.' })
  @IsDefined({ message: 'url is required.' })
  @IsString({ message: 'url must be a string.' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters.' })
  @IsHttpUrl({ message: 'url must be an absolute http or https URL.' })
  url: string;

  @ApiPropertyOptional({
    minLength: 64, maxLength: 1024, writeOnly: true,
    description: 'Cryptographically random; signs every callback (HS256 JWT, v1 signature) with signatureScheme hmac-sha256, where it is required. Optional with ed25519 (kept, unused, while that scheme is chosen). Never returned.',
  })
  @ValidateIf((o: SubscriptionDto) => o.signatureScheme !== 'ed25519' || o.sharedSecret !== undefined)
  @IsDefined({ message: 'sharedSecret is required.' })
  @IsString({ message: 'sharedSecret must be a string.' })
  @Length(64, 1024, { message: 'sharedSecret must be between 64 and 1024 characters long.' })
  sharedSecret?: string;

  @ApiPropertyOptional({
    enum: SIGNATURE_SCHEMES,
    description: "hmac-sha256 (when absent): callbacks are signed with the shared secret. ed25519: with the domain's Ed25519 key (EdDSA JWT, Standard Webhooks v1a); receivers verify with the public keys of GET /.well-known/webhooks/jwks.json?domain=<domain>.",
  })
  @ValidateIf((o: SubscriptionDto) => o.signatureScheme !== undefined) // null is refused, as any other wrong type
  @IsIn(SIGNATURE_SCHEMES as SignatureScheme[], { message: 'signatureScheme must be hmac-sha256 or ed25519.' })
  signatureScheme?: SignatureScheme;

  @ApiPropertyOptional({
    type: 'integer', minimum: 1, maximum: 1000,
    description: 'At most this many attempts per second, across every dispatcher copy. Absent: no cap (a receiver answering 502/503/504, or 429 without Retry-After, is sent fewer attempts at once until it succeeds again).',
  })
  @ValidateIf((o: SubscriptionDto) => o.maxPerSecond !== undefined)
  @IsInt({ message: 'maxPerSecond must be an integer from 1 to 1000.' })
  @Min(1, { message: 'maxPerSecond must be an integer from 1 to 1000.' })
  @Max(1000, { message: 'maxPerSecond must be an integer from 1 to 1000.' })
  maxPerSecond?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'At most this many attempts in flight at once, across every dispatcher copy. Absent: no cap.' })
  @ValidateIf((o: SubscriptionDto) => o.maxInFlight !== undefined)
  @IsInt({ message: 'maxInFlight must be an integer from 1 to 100.' })
  @Min(1, { message: 'maxInFlight must be an integer from 1 to 100.' })
  @Max(100, { message: 'maxInFlight must be an integer from 1 to 100.' })
  maxInFlight?: number;

  @ApiPropertyOptional({
    enum: DELIVERY_ORDERINGS,
    description: 'fifo: each event is attempted only once every earlier one of the domain (in the order on the input topic) is delivered, skipped or failed, so a failing event holds the later ones back until its retries end. none (when absent): as they come, concurrently.',
  })
  @ValidateIf((o: SubscriptionDto) => o.ordering !== undefined)
  @IsIn(DELIVERY_ORDERINGS as DeliveryOrdering[], { message: 'ordering must be none or fifo.' })
  ordering?: DeliveryOrdering;
}

export class TestSubscriptionDto {
  @ApiProperty({ type: 'object', additionalProperties: true, example: { hello: 'world' }, description: 'Sent as the exact JSON body of the test call.' })
  @IsDefined({ message: 'payloadToEcho is required.' })
  @IsObject({ message: 'payloadToEcho must be a JSON object.' })
  payloadToEcho: Record<string, unknown>;
}

export class DeliveriesQuery extends PageLimitQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES as DeliveryStatus[], { message: 'status must be pending, delivered, failed or skipped.' })
  status?: DeliveryStatus;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page.', maxLength: 64 })
  @IsOptional()
  @IsString({ message: 'cursor is invalid.' })
  @MaxLength(64, { message: 'cursor is invalid.' })
  cursor?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the delivery of this event.' })
  @IsOptional()
  @IsString({ message: 'eventId must be a UUID.' })
  @MaxLength(64, { message: 'eventId must be a UUID.' })
  eventId?: string;

  @ApiPropertyOptional({ description: 'Only deliveries created at or after this ISO-8601 instant.', example: '2025-06-01T00:00:00Z', maxLength: 40 })
  @IsOptional()
  @IsString({ message: 'since must be an ISO-8601 date-time.' })
  @MaxLength(40, { message: 'since must be an ISO-8601 date-time.' })
  since?: string;

  @ApiPropertyOptional({ description: 'Only deliveries created before this ISO-8601 instant.', example: '2025-06-02T00:00:00Z', maxLength: 40 })
  @IsOptional()
  @IsString({ message: 'until must be an ISO-8601 date-time.' })
  @MaxLength(40, { message: 'until must be an ISO-8601 date-time.' })
  until?: string;
}

export class BackfillDeliveriesDto {
  @ApiProperty({ description: 'From this ISO-8601 instant (at most 7 days back): the events on the topic at or after it.', example: '2025-06-01T00:00:00Z', maxLength: 40 })
  @IsDefined({ message: 'since is required.' })
  @IsString({ message: 'since must be an ISO-8601 date-time.' })
  @MaxLength(40, { message: 'since must be an ISO-8601 date-time.' })
  since: string;
}

export class RecoverDeliveriesDto {
  @ApiProperty({ description: 'Start of the window (ISO-8601): deliveries created at or after it.', example: '2025-06-01T00:00:00Z', maxLength: 40 })
  @IsDefined({ message: 'since is required.' })
  @IsString({ message: 'since must be an ISO-8601 date-time.' })
  @MaxLength(40, { message: 'since must be an ISO-8601 date-time.' })
  since: string;

  @ApiPropertyOptional({ description: 'End of the window (ISO-8601), exclusive; default now. At most 31 days after since.', example: '2025-06-02T00:00:00Z', maxLength: 40 })
  @IsOptional()
  @IsString({ message: 'until must be an ISO-8601 date-time.' })
  @MaxLength(40, { message: 'until must be an ISO-8601 date-time.' })
  until?: string;
}

/** `{backfillId}` of one backfill job. */
export class BackfillParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'backfillId must be a UUID.' })
  backfillId: string;
}

/** `{kid}` in a path: a key id as the JWK Set and the key list show it (an RFC 7638 thumbprint, base64url). */
export function IsSigningKeyId(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The key id (kid), as GET …/SigningKeys and the JWK Set list it.' }),
    Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'kid must be a key id (base64url, at most 64 characters), as the signing keys list shows it.' }),
  );
}

/** `{kid}` of one signing key. */
export class SigningKeyParams {
  @IsSigningKeyId()
  kid: string;
}
