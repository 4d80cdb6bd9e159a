// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface RevokeSigningKeyRequest {
  'kid'?: (string);
}

export interface RevokeSigningKeyRequest__Output {
  'kid': (string);
}
