import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_ORDERINGS, DISABLED_REASONS, RISK_ASSESSMENT_EXECUTED, SIGNATURE_SCHEMES } from '@tailsync/contracts';

export class SubscriptionHealthView {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last delivery was delivered.' })
  lastSuccessAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last delivery ended failed.' })
  lastFailureAt: string | null;
  @ApiProperty({ description: 'Deliveries that ended failed since the last delivered one (or since the subscription was last saved or enabled).' })
  failedDeliveriesInARow: number;
}

export class SubscriptionView {
  @ApiProperty({ type: [String], example: [RISK_ASSESSMENT_EXECUTED] })
  eventNames: string[];
  @ApiProperty({ example: 'https://hooks.example.com/tailsync' })
  url: string;
  @ApiProperty({ enum: SIGNATURE_SCHEMES, description: "How callbacks are signed: the shared secret (hmac-sha256) or the domain's Ed25519 key (ed25519)." })
  signatureScheme: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Attempts per second across every copy; null when unset.' })
  maxPerSecond: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Attempts in flight across every copy; null when unset.' })
  maxInFlight: number | null;
  @ApiProperty({ enum: DELIVERY_ORDERINGS, description: "fifo: the domain's events one at a time, in their order on the input topic; none: as they come, concurrently." })
  ordering: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  @ApiProperty({ format: 'date-time', description: 'When the current shared secret was set (created or rotated).' })
  secretUpdatedAt: string;
  @ApiProperty({
    type: String, format: 'date-time', nullable: true,
    description: 'After a rotation, until when callbacks also carry a Webhook-Signature made with the previous secret; null when none.',
  })
  previousSecretValidUntil: string | null;
  @ApiProperty({ enum: ['active', 'disabled'], description: 'disabled: callbacks stop and events are recorded as skipped until the subscription is saved again or enabled.' })
  status: string;
  @ApiProperty({
    type: String, enum: DISABLED_REASONS, nullable: true,
    description: 'gone: the endpoint answered 410 Gone; failing: every delivery failed for the configured period; operator: an operator disabled it (admin API).',
  })
  disabledReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  disabledAt: string | null;
  @ApiProperty({ type: SubscriptionHealthView })
  health: SubscriptionHealthView;
}

export class TestDiagnosticsView {
  @ApiProperty()
  url: string;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status the URL answered, null when no response arrived.' })
  statusCode: number | null;
  @ApiProperty()
  durationMs: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why the call failed (time-out, connection failure, refused address, HTTP status).' })
  error: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1 KiB of the response body.' })
  responseBodySnippet: string | null;
}

export class TestResultView {
  @ApiProperty({ description: 'true if the URL answered with a 2xx status.' })
  success: boolean;
  @ApiProperty({ type: TestDiagnosticsView })
  diagnostics: TestDiagnosticsView;
}

export class AttemptView {
  @ApiProperty()
  attempt: number;
  @ApiProperty({ format: 'date-time' })
  at: string;
  @ApiProperty({ type: Number, nullable: true })
  statusCode: number | null;
  @ApiProperty()
  durationMs: number;
  @ApiProperty({ type: String, nullable: true })
  error: string | null;
  @ApiProperty({ type: Number, nullable: true, description: "The receiver's Retry-After on 429 or 503 in ms (capped), when valid; it delayed the next attempt." })
  retryAfterMs: number | null;
}

export class DeliveryView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid', description: 'The event id; also the Webhook-Id header of every attempt.' })
  eventId: string;
  @ApiProperty({ example: RISK_ASSESSMENT_EXECUTED })
  eventName: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'skipped'] })
  status: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The recovery (POST /WebhookSubscriptions/Deliveries/Recover) that last started this delivery again.' })
  recoveryId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The backfill (POST /WebhookSubscriptions/Deliveries/Backfill) that made this delivery; null for a live event.' })
  backfillId: string | null;
  @ApiProperty({ type: [AttemptView], description: 'Oldest first.' })
  attempts: AttemptView[];
}

export class DeliveryPageView {
  @ApiProperty({ type: [DeliveryView], description: 'Newest first.' })
  items: DeliveryView[];
  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

export class RecoveryView {
  @ApiProperty({ format: 'uuid', description: "Shown as recoveryId on each delivery it started again." })
  recoveryId: string;
  @ApiProperty({ description: 'How many failed or skipped deliveries were started again.' })
  deliveries: number;
}

export class BackfillView {
  @ApiProperty({ format: 'uuid', description: 'Shown as backfillId on each delivery it made.' })
  backfillId: string;
  @ApiProperty({ format: 'date-time', description: 'The events on the topic at or after this instant are read.' })
  since: string;
  @ApiProperty({ enum: ['queued', 'running', 'done', 'failed', 'cancelled'], description: 'queued until a dispatcher copy takes it (at most WEBHOOK_BACKFILL_CONCURRENCY run at once).' })
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  @ApiProperty({ description: "The domain's events read on the topic so far." })
  eventsFound: number;
  @ApiProperty({ description: 'Of those, the ones that had no delivery and have one now (paced at the recovery rate).' })
  eventsStored: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: string | null;
}

export class BackfillListView {
  @ApiProperty({ type: [BackfillView], description: 'The 20 most recent, newest first.' })
  items: BackfillView[];
}

export class RedeliverView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['pending'] })
  status: 'pending';
}

export class WebhookJwkView {
  @ApiProperty({ enum: ['OKP'] })
  kty: 'OKP';
  @ApiProperty({ enum: ['Ed25519'] })
  crv: 'Ed25519';
  @ApiProperty({ description: 'base64url of the 32-byte Ed25519 public key.' })
  x: string;
  @ApiProperty({ description: "RFC 7638 thumbprint of the key; the JWT header's kid of every callback it signs." })
  kid: string;
  @ApiProperty({ enum: ['EdDSA'] })
  alg: 'EdDSA';
  @ApiProperty({ enum: ['sig'] })
  use: 'sig';
}

export class JwksView {
  @ApiProperty({ type: [WebhookJwkView], description: 'Every key that signs now, will sign after a rotation, or signed until lately; empty when the domain has none.' })
  keys: WebhookJwkView[];
}

export class SigningKeyView {
  @ApiProperty()
  kid: string;
  @ApiProperty({ enum: ['next', 'current', 'retiring'], description: 'next: published, signs from signsFrom; current: signs now; retiring: replaced, still published until retiresAt.' })
  status: string;
  @ApiProperty({ format: 'date-time', description: 'When it was made and published.' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  signsFrom: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it leaves the JWK Set; null while no newer key replaces it.' })
  retiresAt: string | null;
}

export class SigningKeysPageView {
  @ApiProperty({ type: [SigningKeyView], description: 'Oldest first.' })
  items: SigningKeyView[];
}
