/**
 * The stable `operationId` and the short `summary` of every operation in /openapi.json, by
 * `METHOD path`. Generated clients name their methods after the ids, so an id never changes once
 * released; a route missing here fails the document's build (and so the drift test).
 */
export const OPERATIONS: Record<string, { operationId: string; summary: string }> = {
  'GET /Version': { operationId: 'getVersion', summary: 'The API version' },
  'GET /health/live': { operationId: 'getLiveness', summary: 'Whether the gateway process is up' },
  'GET /health/ready': { operationId: 'getReadiness', summary: 'Whether the gateway can serve requests' },
  'POST /oauth/token': { operationId: 'createAccessToken', summary: 'Get an access token (OAuth2 client credentials)' },

  'PUT /Tails': { operationId: 'createOrMapTail', summary: 'Create a tail, or map your Mapped ID to one' },
  'GET /Tails': { operationId: 'listTails', summary: "List your domain's tails, page by page" },
  'PUT /Tails/Bulk': { operationId: 'createOrMapTails', summary: 'Create or map up to 1,000 tails' },
  'POST /Tails/Deactivate': { operationId: 'deactivateTail', summary: 'Deactivate an active tail' },
  'POST /Tails/Reactivate': { operationId: 'reactivateTail', summary: 'Reactivate an inactive tail' },
  'POST /Tails/ChangeTailNumber': { operationId: 'changeTailNumber', summary: "Change a tail's tail number" },
  'GET /Tails/{mappedId}': { operationId: 'getTail', summary: 'Read one tail' },
  'GET /Tails/{mappedId}/History': { operationId: 'getTailHistory', summary: "A tail's events, oldest first" },

  'POST /WebhookSubscriptions': { operationId: 'saveWebhookSubscription', summary: "Create or update your domain's subscription" },
  'GET /WebhookSubscriptions': { operationId: 'getWebhookSubscription', summary: "Your domain's subscription" },
  'DELETE /WebhookSubscriptions': { operationId: 'deleteWebhookSubscription', summary: "Delete your domain's subscription" },
  'POST /WebhookSubscriptions/Enable': { operationId: 'enableWebhookSubscription', summary: 'Enable a disabled subscription' },
  'POST /WebhookSubscriptions/Test': { operationId: 'testWebhookSubscription', summary: 'Send one signed test call' },
  'GET /WebhookSubscriptions/Deliveries': { operationId: 'listDeliveries', summary: 'Your delivery log, newest first' },
  'POST /WebhookSubscriptions/Deliveries/Recover': { operationId: 'recoverDeliveries', summary: 'Send the failed and skipped deliveries of a window again' },
  'POST /WebhookSubscriptions/Deliveries/Backfill': { operationId: 'backfillDeliveries', summary: 'Send the events still on the topic that have no delivery' },
  'POST /WebhookSubscriptions/Deliveries/{id}/Redeliver': { operationId: 'redeliverDelivery', summary: 'Send one failed delivery again' },
  'GET /WebhookSubscriptions/SigningKeys': { operationId: 'listSigningKeys', summary: "Your domain's Ed25519 signing keys" },
  'POST /WebhookSubscriptions/SigningKeys/Rotate': { operationId: 'rotateSigningKey', summary: "Rotate your domain's Ed25519 signing key" },
  'GET /.well-known/webhooks/jwks.json': { operationId: 'getWebhookJwks', summary: "A domain's webhook signing keys (JWK Set)" },

  'POST /admin/ServiceAccounts': { operationId: 'adminCreateServiceAccount', summary: 'Create a service account' },
  'GET /admin/ServiceAccounts': { operationId: 'adminListServiceAccounts', summary: 'List service accounts' },
  'POST /admin/ServiceAccounts/{clientId}/Disable': { operationId: 'adminDisableServiceAccount', summary: 'Disable a service account' },
  'POST /admin/ServiceAccounts/{clientId}/Enable': { operationId: 'adminEnableServiceAccount', summary: 'Enable a service account' },
  'POST /admin/ServiceAccounts/{clientId}/RotateSecret': { operationId: 'adminRotateServiceAccountSecret', summary: "Replace a service account's secret" },
  'DELETE /admin/ServiceAccounts/{clientId}': { operationId: 'adminDeleteServiceAccount', summary: 'Delete a service account' },
  'GET /admin/Overview': { operationId: 'adminGetOverview', summary: "The console's figures of the last hour" },
  'GET /admin/Domains': { operationId: 'adminListDomains', summary: 'Every domain with its accounts, tails and subscription' },
  'GET /admin/Domains/{domain}/Subscription': { operationId: 'adminGetDomainSubscription', summary: "A domain's subscription" },
  'POST /admin/Domains/{domain}/Subscription/Enable': { operationId: 'adminEnableDomainSubscription', summary: "Enable a domain's subscription" },
  'POST /admin/Domains/{domain}/Subscription/Disable': { operationId: 'adminDisableDomainSubscription', summary: "Disable a domain's subscription" },
  'POST /admin/Domains/{domain}/Subscription/Test': { operationId: 'adminTestDomainSubscription', summary: "Send one signed test call to a domain's URL" },
  'GET /admin/Domains/{domain}/Deliveries': { operationId: 'adminListDomainDeliveries', summary: "A domain's delivery log" },
  'POST /admin/Domains/{domain}/Deliveries/Recover': { operationId: 'adminRecoverDomainDeliveries', summary: "Send a domain's failed and skipped deliveries again" },
  'POST /admin/Domains/{domain}/Deliveries/Backfill': { operationId: 'adminBackfillDomainDeliveries', summary: "Send a domain's events still on the topic that have no delivery" },
  'POST /admin/Domains/{domain}/Deliveries/{id}/Redeliver': { operationId: 'adminRedeliverDomainDelivery', summary: "Send one of a domain's failed deliveries again" },
  'GET /admin/Domains/{domain}/Tails': { operationId: 'adminFindDomainTails', summary: "Find a domain's tails" },
  'GET /admin/Domains/{domain}/Tails/History': { operationId: 'adminGetDomainTailHistory', summary: "A domain's tail's history" },
};
