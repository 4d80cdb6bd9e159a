import {
  type AttemptView, type BackfillState, type EventPageView, type BackfillView, type CreateOrMapOutcome, type DeliveryActivityReply, type DeliveryOrdering, type DeliveryPage, type DeliveryStatus, type DisabledReason, fieldErrorsFromWire,
  type PingReply, type SignatureScheme, type SigningKeySetView, type SigningKeysView, type SubscriptionView, type TailActivityReply, type TailHistory, type TailListPage, type TailView, type TailViewStatus,
  type TestSubscriptionResult, type wire, normalizeTailProperties,
} from '@tailsync/contracts';

/*
 * The services' replies as the gateway answers them: an `optional` field the wire leaves out is
 * JSON null, JSON carried as text is parsed. Each function names every field of its view, so a
 * change to the `.proto` or to a view fails the typecheck here.
 */

export const tailView = (w: wire.TailView__Output): TailView => ({
  tailId: w.tailId,
  mappedId: w.mappedId ?? null,
  tailNumber: w.tailNumber,
  ...normalizeTailProperties(w),
  status: w.status as TailViewStatus,
  mappings: w.mappings.map(({ source, mappedId }) => ({ source, mappedId })),
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
  version: w.version,
});

export const tailPage = (w: wire.TailPage__Output): TailListPage => ({ items: w.items.map(tailView), nextCursor: w.nextCursor ?? null });

export const tailHistory = (w: wire.TailHistory__Output): TailHistory => ({
  items: w.items.map(({ eventId, type, occurredAt, version, source, dataJson }) => ({ eventId, type, occurredAt, version, source, data: JSON.parse(dataJson) })),
});

export const createOrMapOutcome = (w: wire.CreateOrMapOutcome__Output): CreateOrMapOutcome =>
  w.outcome === 'invalid'
    ? { outcome: 'invalid', fieldErrors: fieldErrorsFromWire(w.fieldErrors) }
    : { outcome: w.outcome as 'created' | 'mapped' | 'no-action', tailId: w.tailId };

export const subscriptionView = (w: wire.SubscriptionView__Output): SubscriptionView => ({
  eventNames: w.eventNames,
  url: w.url,
  signatureScheme: w.signatureScheme as SignatureScheme,
  maxPerSecond: w.maxPerSecond ?? null,
  maxInFlight: w.maxInFlight ?? null,
  ordering: w.ordering as DeliveryOrdering,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
  secretUpdatedAt: w.secretUpdatedAt,
  previousSecretValidUntil: w.previousSecretValidUntil ?? null,
  status: w.status as SubscriptionView['status'],
  disabledReason: (w.disabledReason ?? null) as DisabledReason | null,
  disabledAt: w.disabledAt ?? null,
  health: {
    lastSuccessAt: w.health?.lastSuccessAt ?? null,
    lastFailureAt: w.health?.lastFailureAt ?? null,
    failedDeliveriesInARow: w.health?.failedDeliveriesInARow ?? 0,
  },
});

export const testResult = (w: wire.TestSubscriptionResult__Output): TestSubscriptionResult => ({
  success: w.success,
  diagnostics: {
    url: w.diagnostics?.url ?? '',
    statusCode: w.diagnostics?.statusCode ?? null,
    durationMs: w.diagnostics?.durationMs ?? 0,
    error: w.diagnostics?.error ?? null,
    responseBodySnippet: w.diagnostics?.responseBodySnippet ?? null,
  },
});

const attemptView = (w: wire.AttemptView__Output): AttemptView => ({
  attempt: w.attempt,
  at: w.at,
  statusCode: w.statusCode ?? null,
  durationMs: w.durationMs,
  error: w.error ?? null,
  retryAfterMs: w.retryAfterMs ?? null,
});

export const deliveryPage = (w: wire.DeliveryPage__Output): DeliveryPage => ({
  items: w.items.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    eventName: d.eventName,
    status: d.status as DeliveryStatus,
    createdAt: d.createdAt,
    recoveryId: d.recoveryId ?? null,
    backfillId: d.backfillId ?? null,
    attempts: d.attempts.map(attemptView),
  })),
  nextCursor: w.nextCursor ?? null,
});

export const pingReply = (w: wire.PingReply__Output): PingReply => ({
  service: w.service,
  instance: w.instance,
  ready: w.ready,
  checks: w.checks as PingReply['checks'],
});

const minuteCounts = (counts: wire.MinuteCount__Output[]) => counts.map(({ minute, domain, count }) => ({ minute, domain, count }));

export const tailActivity = (w: wire.TailActivityReply__Output): TailActivityReply => ({
  tailsWritten: minuteCounts(w.tailsWritten),
  lags: w.lags.map(({ name, events, capped, seconds }) => ({ name, events, capped, seconds })),
});

export const deliveryActivity = (w: wire.DeliveryActivityReply__Output): DeliveryActivityReply => ({
  eventsConsumed: minuteCounts(w.eventsConsumed),
  delivered: minuteCounts(w.delivered),
  failed: minuteCounts(w.failed),
  skipped: minuteCounts(w.skipped),
  consumerLag: w.consumerLag ?? null,
  attention: w.attention.map((a) => ({
    domain: a.domain,
    url: a.url,
    status: a.status as SubscriptionView['status'],
    disabledReason: a.disabledReason ?? null,
    failedDeliveriesInARow: a.failedDeliveriesInARow,
    lastFailureAt: a.lastFailureAt ?? null,
  })),
});

export const signingKeySet = (w: wire.SigningKeySet__Output): SigningKeySetView => ({
  keys: w.keys.map(({ kid, x }) => ({ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' })),
  maxAgeSeconds: w.maxAgeSeconds,
});

export const signingKeys = (w: wire.SigningKeys__Output): SigningKeysView => ({
  items: w.items.map((k) => ({
    kid: k.kid,
    status: k.status as SigningKeysView['items'][number]['status'],
    createdAt: k.createdAt,
    signsFrom: k.signsFrom,
    retiresAt: k.retiresAt ?? null,
  })),
});

export const backfillView = (w: wire.BackfillView__Output): BackfillView => ({
  backfillId: w.backfillId,
  since: w.since,
  state: w.state as BackfillState,
  eventsFound: Number(w.eventsFound),
  eventsStored: Number(w.eventsStored),
  startedAt: w.startedAt ?? null,
  finishedAt: w.finishedAt ?? null,
});

export const eventPage = (w: wire.EventPage__Output): EventPageView => ({
  items: w.items.map(({ eventId, eventName, occurredAt, payload, headers }) => ({ eventId, eventName, occurredAt, payload, headers: { ...headers } })),
  iterator: w.iterator,
  done: w.done,
});
