/**
 * One example per body schema of /openapi.json (set as its JSON Schema `examples`), so every
 * request and response body of an operation shows a realistic value; the e2e suite checks each
 * example against its schema. Values follow the contract's own examples (domain `acme`).
 */
import { normalizeTailProperties } from '@tailsync/contracts';

const AT = '2026-01-01T12:00:00.000Z';
const LATER = '2026-01-01T12:05:00.000Z';
const EVENT_ID = '0b6f1a52-6c1e-4b7e-9a59-3f1d2c8e7a40';
const CLIENT_ID = 'sa_4f1c2d3e5a6b7c8d';
const KID = '8pc2qY2TRpOYQVy7wMWt_s7fxOwC3EeBdE_MeDdPNck';
const NEXT_KID = 'qK3v0mXr1s9bYx8fZk2Lw7pN4tHc6eJd5aRg0uQ1iVo';
const LATER_DAY = '2026-01-02T12:00:00.000Z';

const serviceAccount = { clientId: CLIENT_ID, domain: 'acme', name: 'Acme EFB', status: 'active', createdAt: AT };
const health = { lastSuccessAt: LATER, lastFailureAt: null, failedDeliveriesInARow: 0 };
const subscription = {
  eventNames: ['Product.RiskAssessmentExecuted'], url: 'https://efb.acme.example/webhooks/tailsync', signatureScheme: 'hmac-sha256', maxPerSecond: null, maxInFlight: null, ordering: 'none', createdAt: AT, updatedAt: LATER,
  secretUpdatedAt: AT, previousSecretValidUntil: null, status: 'active', disabledReason: null, disabledAt: null, health,
};
const mapping = { source: CLIENT_ID, mappedId: 'efb-42' };
// A view has every tail property: one the example does not give is null (a property added to the table).
const tailProperties = normalizeTailProperties({ registrationNumber: 'N123AB', icaoTypeName: 'B738', vendorTypeName: 'Boeing 737-800', countryCode: 'US', passengerSeating: 172 });
const tail = { tailId: 17, mappedId: 'efb-42', tailNumber: 'N123AB', ...tailProperties, status: 'active', mappings: [mapping], createdAt: AT, updatedAt: LATER, version: 2 };
const validation = {
  fieldErrors: { tailNumber: ['Tail number is required.'] }, generalErrors: [], isValid: false, title: 'One or more validation errors occurred.',
  instance: '6f1d2c8e-7a40-4b7e-9a59-0b6f1a526c1e', type: 'https://tailsync.example.com/docs/errors#validation-errors', detail: 'Tail number is required.',
};
const attempt = { attempt: 1, at: AT, statusCode: 204, durationMs: 38, error: null, retryAfterMs: null };
const DELIVERY_ID = '5d1c0e4f-2a3b-4c5d-8e6f-7a8b9c0d1e2f';
const delivery = { id: DELIVERY_ID, eventId: EVENT_ID, eventName: 'Product.RiskAssessmentExecuted', status: 'delivered', createdAt: AT, recoveryId: null, backfillId: null, attempts: [attempt] };
const backfill = { backfillId: '8e2d4c6a-1b3f-4a5e-9c7d-0f1e2d3c4b5a', since: '2026-01-01T00:00:00.000Z', state: 'done', eventsFound: 42, eventsStored: 40, startedAt: AT, finishedAt: AT };
const diagnostics = { url: subscription.url, statusCode: 204, durationMs: 41, error: null, responseBodySnippet: '' };
const polledEvent = {
  eventId: EVENT_ID, eventName: 'Product.RiskAssessmentExecuted', occurredAt: AT,
  payload: `{"eventId":"${EVENT_ID}","eventName":"Product.RiskAssessmentExecuted","occurredAt":"${AT}","domain":"acme","data":{"score":3}}`,
  headers: {
    'content-type': 'application/json', authorization: 'Token eyJhbGciOiJIUzI1NiIsImtpZCI6IjNmOWMyZTFkNWI3YTRjOGUifQ.eyJwYXlsb2FkSGFzaCI6IuKApiJ9.c2lnbmF0dXJl',
    'user-agent': 'tailsync-webhooks/15.4.9707.25929', 'webhook-id': EVENT_ID, 'webhook-attempt': '1', 'webhook-timestamp': '1767268800',
    'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};
const activity = { tailsWritten: [3, 0, 12], eventsConsumed: [5, 2, 0], delivered: [5, 2, 0], failed: [0, 0, 0], skipped: [0, 0, 0] };

export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  VersionView: { version: '15.4.9707.25929', build: { release: '1.0.0', revision: '3f9c2e1d5b7a4c8e9f0a1b2c3d4e5f6a7b8c9d0e', created: '2026-11-26T12:00:00Z', node: 'v24.21.0' } },
  TokenRequestDto: { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: 'cs_8Zq1w…' },
  CreateServiceAccountDto: { domain: 'acme', name: 'Acme EFB' },
  ServiceAccountCreatedView: { clientId: CLIENT_ID, clientSecret: 'cs_8Zq1w…shown-once', domain: 'acme', name: 'Acme EFB' },
  ServiceAccountView: serviceAccount,
  ServiceAccountPageView: { items: [serviceAccount], nextCursor: null },
  ServiceAccountWithSecretView: { ...serviceAccount, clientSecret: 'cs_Yw2k9…shown-once' },
  TokenView: { access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzYV80ZjFjMmQzZTVhNmI3YzhkIn0.c2lnbmF0dXJl', token_type: 'Bearer', expires_in: 3600 },
  TailDto: { tailId: 'efb-42', tailNumber: 'N123AB', registrationNumber: 'N123AB', icaoTypeName: 'B738', vendorTypeName: 'Boeing 737-800', countryCode: 'US', passengerSeating: 172 },
  BulkTailsDto: { tails: [{ tailId: 'efb-42', tailNumber: 'N123AB', icaoTypeName: 'B738' }, { tailId: 'efb-43', tailNumber: 'N456CD', countryCode: 'CA' }] },
  OperationResultView: { operationId: 'efb-42', isValid: true, tailId: 17, wasCreated: true, newSourceMappingAdded: false },
  BulkResultView: { operations: [{ operationId: 'efb-42', isValid: true, tailId: 17, wasCreated: true, newSourceMappingAdded: false }, { operationId: 'efb-43', isValid: false, validation }] },
  TailReferenceDto: { tailId: 'efb-42' },
  ChangeTailNumberDto: { tailId: 'efb-42', newTailNumber: 'N124AB' },
  TailView: tail,
  TailPageView: { items: [tail], nextCursor: 'eyJpZCI6MTd9' },
  TailHistoryView: {
    items: [
      { eventId: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f01', type: 'TailCreated', occurredAt: AT, version: 1, source: CLIENT_ID, data: { tailNumber: 'N123AB', mappedId: 'efb-42' } },
      { eventId: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f02', type: 'TailRenumbered', occurredAt: LATER, version: 2, source: CLIENT_ID, data: { tailNumber: 'N124AB' } },
    ],
  },
  SubscriptionDto: { eventNames: ['Product.RiskAssessmentExecuted'], url: subscription.url, sharedSecret: 'f3a9c1e07b5d24689ace13579bdf02468ace13579bdf02468ace13579bdf0246' },
  SubscriptionView: subscription,
  TestSubscriptionDto: { payloadToEcho: { hello: 'world' } },
  TestResultView: { success: true, diagnostics },
  DeliveryPageView: { items: [delivery], nextCursor: null },
  PolledEventView: polledEvent,
  EventPageView: { items: [polledEvent], iterator: 'ZTE6ODQyOjE3', done: true },
  RecoverDeliveriesDto: { since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' },
  RecoveryView: { recoveryId: '3c9b7a1e-5d2f-4e6a-8b0c-1d2e3f4a5b6c', deliveries: 12 },
  BackfillDeliveriesDto: { since: '2026-01-01T00:00:00Z' },
  BackfillView: backfill,
  BackfillListView: { items: [backfill] },
  RedeliverView: { id: DELIVERY_ID, status: 'pending' },
  JwksView: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'Pk_lSjMurHdyHP51itiehDJb4V0c7Z27EcQpqCCwrP8', kid: KID, alg: 'EdDSA', use: 'sig' }] },
  SigningKeysPageView: {
    items: [
      { kid: KID, status: 'current', createdAt: AT, signsFrom: AT, retiresAt: '2026-01-04T12:00:00.000Z' },
      { kid: NEXT_KID, status: 'next', createdAt: LATER_DAY, signsFrom: '2026-01-03T12:00:00.000Z', retiresAt: null },
    ],
  },
  DomainsView: { items: [{ domain: 'acme', serviceAccounts: 2, tails: 148, subscription: { status: 'active', url: subscription.url } }] },
  AdminTailsView: { items: [tail] },
  ProblemView: { ...validation, status: 400 },
  OverviewView: {
    generatedAt: LATER,
    minutes: ['2026-01-01T12:03:00.000Z', '2026-01-01T12:04:00.000Z', '2026-01-01T12:05:00.000Z'],
    total: activity,
    domains: [{ ...activity, domain: 'acme' }],
    lags: [{ name: 'tails', events: 0, capped: false, seconds: 0 }, { name: 'relay:tailsync.tail-events', events: 3, capped: false, seconds: 0.4 }],
    consumerLag: 0,
    subscriptions: [{ domain: 'globex', url: 'https://hooks.globex.example/tailsync', status: 'disabled', disabledReason: 'gone', failedDeliveriesInARow: 1, lastFailureAt: AT }],
  },
};
