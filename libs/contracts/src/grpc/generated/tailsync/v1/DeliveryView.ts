// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { AttemptView as _tailsync_v1_AttemptView, AttemptView__Output as _tailsync_v1_AttemptView__Output } from '../../tailsync/v1/AttemptView';

export interface DeliveryView {
  'id'?: (string);
  'eventId'?: (string);
  'eventName'?: (string);
  'status'?: (string);
  'createdAt'?: (string);
  'recoveryId'?: (string);
  'attempts'?: (_tailsync_v1_AttemptView)[];
  'backfillId'?: (string);
  '_recoveryId'?: "recoveryId";
  '_backfillId'?: "backfillId";
}

export interface DeliveryView__Output {
  'id': (string);
  'eventId': (string);
  'eventName': (string);
  'status': (string);
  'createdAt': (string);
  'recoveryId'?: (string);
  'attempts': (_tailsync_v1_AttemptView__Output)[];
  'backfillId'?: (string);
  '_recoveryId'?: "recoveryId";
  '_backfillId'?: "backfillId";
}
