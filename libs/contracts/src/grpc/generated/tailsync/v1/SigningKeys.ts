// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { SigningKeyView as _tailsync_v1_SigningKeyView, SigningKeyView__Output as _tailsync_v1_SigningKeyView__Output } from '../../tailsync/v1/SigningKeyView';

export interface SigningKeys {
  'items'?: (_tailsync_v1_SigningKeyView)[];
}

export interface SigningKeys__Output {
  'items': (_tailsync_v1_SigningKeyView__Output)[];
}
