// A TypeScript client generated from docs/api/openapi.json (openapi-typescript types, openapi-fetch
// calls), making one call of each kind against the stack. e2e/src/api-documents.e2e.ts generates
// ./schema.d.ts beside a copy of this file, type-checks both (the calls must fit the generated
// types) and runs it; it prints what it got as JSON.
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

const [baseUrl, clientId, clientSecret, receiverUrl] = process.argv.slice(2);
const api = createClient<paths>({ baseUrl });

// auth: the OAuth2 client-credentials flow the document names
const token = await api.POST('/oauth/token', {
  body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
});
const accessToken: string = token.data!.access_token;
const headers = { Authorization: `Bearer ${accessToken}` };

// a command, a bulk command, a read, a list, the history
const tail: components['schemas']['TailDto'] = { tailId: 'ts-1', tailNumber: 'N701TS', countryCode: 'US', passengerSeating: 180 };
const created = await api.PUT('/Tails', { headers, body: tail });
const bulk = await api.PUT('/Tails/Bulk', { headers, body: { tails: [{ tailId: 'ts-2', tailNumber: 'N702TS' }, { tailId: 'ts-3', tailNumber: '' }] } });
const renumbered = await api.POST('/Tails/ChangeTailNumber', { headers, body: { tailId: 'ts-1', newTailNumber: 'N703TS' } });
const read = await api.GET('/Tails/{mappedId}', { headers, params: { path: { mappedId: 'ts-1' } } });
const list = await api.GET('/Tails', { headers, params: { query: { limit: 10 } } });
const history = await api.GET('/Tails/{mappedId}/History', { headers, params: { path: { mappedId: 'ts-1' } } });
// an error: the problem body, typed
const missing = await api.GET('/Tails/{mappedId}', { headers, params: { path: { mappedId: 'no-such-tail' } } });
const problem: components['schemas']['ProblemView'] | undefined = missing.error;

// webhooks: subscribe, a Test call, the delivery log, unsubscribe
const subscription = await api.POST('/WebhookSubscriptions', {
  headers, body: { eventNames: ['Product.RiskAssessmentExecuted'], url: receiverUrl, sharedSecret: 'ts-client-'.repeat(8) },
});
const test = await api.POST('/WebhookSubscriptions/Test', { headers, body: { payloadToEcho: { from: 'the TypeScript client' } } });
const deliveries = await api.GET('/WebhookSubscriptions/Deliveries', { headers, params: { query: { limit: 5 } } });
const deleted = await api.DELETE('/WebhookSubscriptions', { headers });

// the operation ids name the generated operations
type CreateOrMap = operations['createOrMapTail'];
const createdStatus: keyof CreateOrMap['responses'] = 201;

console.log(JSON.stringify({
  token: token.response.status,
  created: [created.response.status, created.data?.wasCreated, createdStatus],
  bulk: bulk.data?.operations.map((o) => o.isValid),
  renumbered: renumbered.data?.tailNumber,
  read: read.data?.tailNumber,
  list: list.data?.items.map((t) => t.mappedId).sort(),
  history: history.data?.items.map((e) => e.type),
  problem: [missing.response.status, problem?.title],
  subscription: subscription.data?.status,
  test: [test.data?.success, test.data?.diagnostics.statusCode, test.data?.diagnostics.error],
  deliveries: deliveries.response.status,
  deleted: deleted.response.status,
}));
