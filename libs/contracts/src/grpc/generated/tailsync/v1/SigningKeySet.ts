// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { WebhookJwk as _tailsync_v1_WebhookJwk, WebhookJwk__Output as _tailsync_v1_WebhookJwk__Output } from '../../tailsync/v1/WebhookJwk';

export interface SigningKeySet {
  'keys'?: (_tailsync_v1_WebhookJwk)[];
  'maxAgeSeconds'?: (number);
}

export interface SigningKeySet__Output {
  'keys': (_tailsync_v1_WebhookJwk__Output)[];
  'maxAgeSeconds': (number);
}
