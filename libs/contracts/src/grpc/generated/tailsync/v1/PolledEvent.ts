// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto


export interface PolledEvent {
  'eventId'?: (string);
  'eventName'?: (string);
  'occurredAt'?: (string);
  /**
   * The exact callback body, the text the signature headers sign.
   */
  'payload'?: (string);
  'headers'?: ({[key: string]: string});
}

export interface PolledEvent__Output {
  'eventId': (string);
  'eventName': (string);
  'occurredAt': (string);
  /**
   * The exact callback body, the text the signature headers sign.
   */
  'payload': (string);
  'headers': ({[key: string]: string});
}
