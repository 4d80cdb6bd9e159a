// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { PolledEvent as _tailsync_v1_PolledEvent, PolledEvent__Output as _tailsync_v1_PolledEvent__Output } from '../../tailsync/v1/PolledEvent';

export interface EventPage {
  'items'?: (_tailsync_v1_PolledEvent)[];
  'iterator'?: (string);
  /**
   * No later event could be read yet.
   */
  'done'?: (boolean);
}

export interface EventPage__Output {
  'items': (_tailsync_v1_PolledEvent__Output)[];
  'iterator': (string);
  /**
   * No later event could be read yet.
   */
  'done': (boolean);
}
