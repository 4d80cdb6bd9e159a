/** Shapes of the webhook requests as the dispatcher's handlers see them (gateway → webhook-dispatcher over gRPC, libs/contracts/proto). */

/**
 * Create or update the caller domain's subscription. The gateway passes the shared secret on over
 * its mutually authenticated channel and keeps nothing of it; the dispatcher alone seals it
 * (`WEBHOOK_SECRET_KEY`) before it is stored.
 */
export interface PutSubscriptionRequest {
  eventNames: string[];
  url: string;
  /** Absent for an `ed25519` subscription saved without a shared secret. */
  sharedSecret?: string;
  /** Default `hmac-sha256`. */
  signatureScheme?: SignatureScheme;
  /** Attempts per second across every copy (1-1000); absent: no cap. */
  maxPerSecond?: number;
  /** Attempts in flight across every copy (1-100); absent: no cap (the adaptive allowance applies). */
  maxInFlight?: number;
  /** Default `none`. */
  ordering?: DeliveryOrdering;
}

/**
 * `fifo`: a domain's events are delivered in their order on the input topic, each attempted only
 * once every earlier one is delivered, skipped or failed; `none`: as they come, concurrently.
 */
export type DeliveryOrdering = 'none' | 'fifo';
export const DELIVERY_ORDERINGS: readonly DeliveryOrdering[] = ['none', 'fifo'];

/** How callbacks are signed: HMAC with the shared secret (`v1`, HS256), or the domain's Ed25519 key (`v1a`, EdDSA). */
export type SignatureScheme = 'hmac-sha256' | 'ed25519';
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = ['hmac-sha256', 'ed25519'];

/** A public key of a domain's JWK Set (`GET /.well-known/webhooks/jwks.json?domain=`). */
export interface WebhookJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The JWK Set, and how long it may be cached. */
export interface SigningKeySetView {
  keys: WebhookJwk[];
  /** `Cache-Control: max-age` of the set: at most 300 s, and never longer than the rotation's grace period. */
  maxAgeSeconds: number;
}

/** One of the domain's signing keys, as its owner sees it. */
export interface SigningKeyView {
  kid: string;
  /** `next`: published, signs from `signsFrom`; `current`: signs now; `retiring`: replaced, published until `retiresAt`. */
  status: 'next' | 'current' | 'retiring';
  createdAt: string;
  signsFrom: string;
  retiresAt: string | null;
}

export interface SigningKeysView {
  items: SigningKeyView[];
}

/** The subscription as callers see it: never the secret. */
export interface SubscriptionView {
  eventNames: string[];
  url: string;
  signatureScheme: SignatureScheme;
  maxPerSecond: number | null;
  maxInFlight: number | null;
  ordering: DeliveryOrdering;
  createdAt: string;
  updatedAt: string;
  /** When the current shared secret was set. */
  secretUpdatedAt: string;
  /** Until when the previous secret still signs callbacks (a rotation's grace period); null when none. */
  previousSecretValidUntil: string | null;
  status: SubscriptionStatus;
  /** Why it was disabled: `gone` (the endpoint answered 410), `failing`, or `operator` (the admin API); null while active. */
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  health: SubscriptionHealth;
}

/** How the endpoint has been doing: its last delivered and last failed deliveries, and the current run of failures. */
export interface SubscriptionHealth {
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  failedDeliveriesInARow: number;
}

export type SubscriptionStatus = 'active' | 'disabled';
/** Why the dispatcher disabled a subscription by itself, from how its endpoint answered. */
export type EndpointDisabledReason = 'gone' | 'failing';
/** `operator`: disabled through the admin API (`POST /admin/Domains/{domain}/Subscription/Disable`). */
export type DisabledReason = EndpointDisabledReason | 'operator';
export const DISABLED_REASONS: readonly DisabledReason[] = ['gone', 'failing', 'operator'];

export interface DeleteSubscriptionResult {
  deleted: true;
}

export interface TestSubscriptionRequest {
  payloadToEcho: unknown;
}

export interface TestDiagnostics {
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBodySnippet: string | null;
}

export interface TestSubscriptionResult {
  success: boolean;
  diagnostics: TestDiagnostics;
}

/** `skipped`: consumed while the subscription was disabled (recorded, never sent). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'skipped'];

export interface ListDeliveriesRequest {
  status?: DeliveryStatus;
  limit?: number;
  cursor?: string;
  /** Only the delivery of this event. */
  eventId?: string;
  /** Only deliveries created at or after this instant (ISO-8601). */
  since?: string;
  /** Only deliveries created before this instant (ISO-8601). */
  until?: string;
}

export interface AttemptView {
  attempt: number;
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The receiver's Retry-After (429 or 503 only), in ms and capped, when it was valid; else null. */
  retryAfterMs: number | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventName: string;
  status: DeliveryStatus;
  createdAt: string;
  /** The recovery that last started this delivery again; null when none did. */
  recoveryId: string | null;
  /** The backfill that made this delivery (of an event read again from the topic); null for a live one. */
  backfillId: string | null;
  attempts: AttemptView[];
}

export interface DeliveryPage {
  items: DeliveryView[];
  nextCursor: string | null;
}

export interface RedeliverRequest {
  id: string;
}

/** Send every failed or skipped delivery created in [since, until) again (`until` defaults to now). */
export interface RecoverDeliveriesRequest {
  since: string;
  until?: string;
}

export interface RecoverDeliveriesResult {
  recoveryId: string;
  /** How many deliveries were started again. */
  deliveries: number;
}

/** Send the events still on the input topic from `since` (at most 7 days back) that the domain has no delivery for. */
export interface BackfillDeliveriesRequest {
  since: string;
}

export type BackfillState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A backfill job: queued at once, read and stored in pages by a dispatcher copy. */
export interface BackfillView {
  backfillId: string;
  since: string;
  state: BackfillState;
  /** The domain's events read on the topic so far. */
  eventsFound: number;
  /** Of those, the ones that had no delivery and have one now (paced at the recovery rate). */
  eventsStored: number;
  startedAt: string | null;
  finishedAt: string | null;
}

/** One backfill of the caller's domain, by id (GetBackfill, CancelBackfill). */
export interface BackfillRequest {
  backfillId: string;
}

export interface BackfillList {
  items: BackfillView[];
}

export interface RedeliverResult {
  id: string;
  status: 'pending';
}

/** The input event of `product.risk-assessment-executed` (key = domain): see `WebhookEventMessage`. */
export interface RiskAssessmentExecutedMessage {
  eventId: string;
  domain: string;
  occurredAt: string;
  data: Record<string, unknown>;
}
