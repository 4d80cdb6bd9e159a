// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type { MinuteCount as _tailsync_v1_MinuteCount, MinuteCount__Output as _tailsync_v1_MinuteCount__Output } from '../../tailsync/v1/MinuteCount';
import type { AttentionSubscription as _tailsync_v1_AttentionSubscription, AttentionSubscription__Output as _tailsync_v1_AttentionSubscription__Output } from '../../tailsync/v1/AttentionSubscription';
import type { Long } from '@grpc/proto-loader';

export interface DeliveryActivityReply {
  'eventsConsumed'?: (_tailsync_v1_MinuteCount)[];
  'delivered'?: (_tailsync_v1_MinuteCount)[];
  'failed'?: (_tailsync_v1_MinuteCount)[];
  'skipped'?: (_tailsync_v1_MinuteCount)[];
  /**
   * generated from the event-type registry by `npm run generate:webhook-events`: consumer-lag
   * Messages of the risk-assessment topic the dispatcher's group has not committed; absent if unknown.
   * end of consumer-lag
   */
  'consumerLag'?: (number | string | Long);
  'attention'?: (_tailsync_v1_AttentionSubscription)[];
  '_consumerLag'?: "consumerLag";
}

export interface DeliveryActivityReply__Output {
  'eventsConsumed': (_tailsync_v1_MinuteCount__Output)[];
  'delivered': (_tailsync_v1_MinuteCount__Output)[];
  'failed': (_tailsync_v1_MinuteCount__Output)[];
  'skipped': (_tailsync_v1_MinuteCount__Output)[];
  /**
   * generated from the event-type registry by `npm run generate:webhook-events`: consumer-lag
   * Messages of the risk-assessment topic the dispatcher's group has not committed; absent if unknown.
   * end of consumer-lag
   */
  'consumerLag'?: (number);
  'attention': (_tailsync_v1_AttentionSubscription__Output)[];
  '_consumerLag'?: "consumerLag";
}
