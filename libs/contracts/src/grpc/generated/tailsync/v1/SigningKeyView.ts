// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface SigningKeyView {
  'kid'?: (string);
  /**
   * "next" | "current" | "retiring".
   */
  'status'?: (string);
  'createdAt'?: (string);
  'signsFrom'?: (string);
  'retiresAt'?: (string);
  '_retiresAt'?: "retiresAt";
}

export interface SigningKeyView__Output {
  'kid': (string);
  /**
   * "next" | "current" | "retiring".
   */
  'status': (string);
  'createdAt': (string);
  'signsFrom': (string);
  'retiresAt'?: (string);
  '_retiresAt'?: "retiresAt";
}
