import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ActivityRequest as _tailsync_v1_ActivityRequest, ActivityRequest__Output as _tailsync_v1_ActivityRequest__Output } from './tailsync/v1/ActivityRequest';
import type { AttemptView as _tailsync_v1_AttemptView, AttemptView__Output as _tailsync_v1_AttemptView__Output } from './tailsync/v1/AttemptView';
import type { AttentionSubscription as _tailsync_v1_AttentionSubscription, AttentionSubscription__Output as _tailsync_v1_AttentionSubscription__Output } from './tailsync/v1/AttentionSubscription';
import type { BackfillDeliveriesRequest as _tailsync_v1_BackfillDeliveriesRequest, BackfillDeliveriesRequest__Output as _tailsync_v1_BackfillDeliveriesRequest__Output } from './tailsync/v1/BackfillDeliveriesRequest';
import type { BackfillList as _tailsync_v1_BackfillList, BackfillList__Output as _tailsync_v1_BackfillList__Output } from './tailsync/v1/BackfillList';
import type { BackfillReply as _tailsync_v1_BackfillReply, BackfillReply__Output as _tailsync_v1_BackfillReply__Output } from './tailsync/v1/BackfillReply';
import type { BackfillRequest as _tailsync_v1_BackfillRequest, BackfillRequest__Output as _tailsync_v1_BackfillRequest__Output } from './tailsync/v1/BackfillRequest';
import type { BackfillView as _tailsync_v1_BackfillView, BackfillView__Output as _tailsync_v1_BackfillView__Output } from './tailsync/v1/BackfillView';
import type { BackfillsReply as _tailsync_v1_BackfillsReply, BackfillsReply__Output as _tailsync_v1_BackfillsReply__Output } from './tailsync/v1/BackfillsReply';
import type { DeleteSubscriptionReply as _tailsync_v1_DeleteSubscriptionReply, DeleteSubscriptionReply__Output as _tailsync_v1_DeleteSubscriptionReply__Output } from './tailsync/v1/DeleteSubscriptionReply';
import type { DeliveryActivityReply as _tailsync_v1_DeliveryActivityReply, DeliveryActivityReply__Output as _tailsync_v1_DeliveryActivityReply__Output } from './tailsync/v1/DeliveryActivityReply';
import type { DeliveryPage as _tailsync_v1_DeliveryPage, DeliveryPage__Output as _tailsync_v1_DeliveryPage__Output } from './tailsync/v1/DeliveryPage';
import type { DeliveryPageReply as _tailsync_v1_DeliveryPageReply, DeliveryPageReply__Output as _tailsync_v1_DeliveryPageReply__Output } from './tailsync/v1/DeliveryPageReply';
import type { DeliveryView as _tailsync_v1_DeliveryView, DeliveryView__Output as _tailsync_v1_DeliveryView__Output } from './tailsync/v1/DeliveryView';
import type { EventPage as _tailsync_v1_EventPage, EventPage__Output as _tailsync_v1_EventPage__Output } from './tailsync/v1/EventPage';
import type { EventPageReply as _tailsync_v1_EventPageReply, EventPageReply__Output as _tailsync_v1_EventPageReply__Output } from './tailsync/v1/EventPageReply';
import type { ListBackfillsRequest as _tailsync_v1_ListBackfillsRequest, ListBackfillsRequest__Output as _tailsync_v1_ListBackfillsRequest__Output } from './tailsync/v1/ListBackfillsRequest';
import type { ListDeliveriesRequest as _tailsync_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _tailsync_v1_ListDeliveriesRequest__Output } from './tailsync/v1/ListDeliveriesRequest';
import type { ListEventsRequest as _tailsync_v1_ListEventsRequest, ListEventsRequest__Output as _tailsync_v1_ListEventsRequest__Output } from './tailsync/v1/ListEventsRequest';
import type { Messages as _tailsync_v1_Messages, Messages__Output as _tailsync_v1_Messages__Output } from './tailsync/v1/Messages';
import type { MinuteCount as _tailsync_v1_MinuteCount, MinuteCount__Output as _tailsync_v1_MinuteCount__Output } from './tailsync/v1/MinuteCount';
import type { PingReply as _tailsync_v1_PingReply, PingReply__Output as _tailsync_v1_PingReply__Output } from './tailsync/v1/PingReply';
import type { PingRequest as _tailsync_v1_PingRequest, PingRequest__Output as _tailsync_v1_PingRequest__Output } from './tailsync/v1/PingRequest';
import type { PolledEvent as _tailsync_v1_PolledEvent, PolledEvent__Output as _tailsync_v1_PolledEvent__Output } from './tailsync/v1/PolledEvent';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from './tailsync/v1/Problem';
import type { PutSubscriptionRequest as _tailsync_v1_PutSubscriptionRequest, PutSubscriptionRequest__Output as _tailsync_v1_PutSubscriptionRequest__Output } from './tailsync/v1/PutSubscriptionRequest';
import type { RecoverDeliveriesReply as _tailsync_v1_RecoverDeliveriesReply, RecoverDeliveriesReply__Output as _tailsync_v1_RecoverDeliveriesReply__Output } from './tailsync/v1/RecoverDeliveriesReply';
import type { RecoverDeliveriesRequest as _tailsync_v1_RecoverDeliveriesRequest, RecoverDeliveriesRequest__Output as _tailsync_v1_RecoverDeliveriesRequest__Output } from './tailsync/v1/RecoverDeliveriesRequest';
import type { RecoverDeliveriesResult as _tailsync_v1_RecoverDeliveriesResult, RecoverDeliveriesResult__Output as _tailsync_v1_RecoverDeliveriesResult__Output } from './tailsync/v1/RecoverDeliveriesResult';
import type { RedeliverReply as _tailsync_v1_RedeliverReply, RedeliverReply__Output as _tailsync_v1_RedeliverReply__Output } from './tailsync/v1/RedeliverReply';
import type { RedeliverRequest as _tailsync_v1_RedeliverRequest, RedeliverRequest__Output as _tailsync_v1_RedeliverRequest__Output } from './tailsync/v1/RedeliverRequest';
import type { RedeliverResult as _tailsync_v1_RedeliverResult, RedeliverResult__Output as _tailsync_v1_RedeliverResult__Output } from './tailsync/v1/RedeliverResult';
import type { RevokeSigningKeyRequest as _tailsync_v1_RevokeSigningKeyRequest, RevokeSigningKeyRequest__Output as _tailsync_v1_RevokeSigningKeyRequest__Output } from './tailsync/v1/RevokeSigningKeyRequest';
import type { SigningKeySet as _tailsync_v1_SigningKeySet, SigningKeySet__Output as _tailsync_v1_SigningKeySet__Output } from './tailsync/v1/SigningKeySet';
import type { SigningKeySetReply as _tailsync_v1_SigningKeySetReply, SigningKeySetReply__Output as _tailsync_v1_SigningKeySetReply__Output } from './tailsync/v1/SigningKeySetReply';
import type { SigningKeyView as _tailsync_v1_SigningKeyView, SigningKeyView__Output as _tailsync_v1_SigningKeyView__Output } from './tailsync/v1/SigningKeyView';
import type { SigningKeys as _tailsync_v1_SigningKeys, SigningKeys__Output as _tailsync_v1_SigningKeys__Output } from './tailsync/v1/SigningKeys';
import type { SigningKeysReply as _tailsync_v1_SigningKeysReply, SigningKeysReply__Output as _tailsync_v1_SigningKeysReply__Output } from './tailsync/v1/SigningKeysReply';
import type { SubscriptionHealth as _tailsync_v1_SubscriptionHealth, SubscriptionHealth__Output as _tailsync_v1_SubscriptionHealth__Output } from './tailsync/v1/SubscriptionHealth';
import type { SubscriptionReply as _tailsync_v1_SubscriptionReply, SubscriptionReply__Output as _tailsync_v1_SubscriptionReply__Output } from './tailsync/v1/SubscriptionReply';
import type { SubscriptionRequest as _tailsync_v1_SubscriptionRequest, SubscriptionRequest__Output as _tailsync_v1_SubscriptionRequest__Output } from './tailsync/v1/SubscriptionRequest';
import type { SubscriptionView as _tailsync_v1_SubscriptionView, SubscriptionView__Output as _tailsync_v1_SubscriptionView__Output } from './tailsync/v1/SubscriptionView';
import type { TestDiagnostics as _tailsync_v1_TestDiagnostics, TestDiagnostics__Output as _tailsync_v1_TestDiagnostics__Output } from './tailsync/v1/TestDiagnostics';
import type { TestSubscriptionReply as _tailsync_v1_TestSubscriptionReply, TestSubscriptionReply__Output as _tailsync_v1_TestSubscriptionReply__Output } from './tailsync/v1/TestSubscriptionReply';
import type { TestSubscriptionRequest as _tailsync_v1_TestSubscriptionRequest, TestSubscriptionRequest__Output as _tailsync_v1_TestSubscriptionRequest__Output } from './tailsync/v1/TestSubscriptionRequest';
import type { TestSubscriptionResult as _tailsync_v1_TestSubscriptionResult, TestSubscriptionResult__Output as _tailsync_v1_TestSubscriptionResult__Output } from './tailsync/v1/TestSubscriptionResult';
import type { WebhookDispatcherClient as _tailsync_v1_WebhookDispatcherClient, WebhookDispatcherDefinition as _tailsync_v1_WebhookDispatcherDefinition } from './tailsync/v1/WebhookDispatcher';
import type { WebhookJwk as _tailsync_v1_WebhookJwk, WebhookJwk__Output as _tailsync_v1_WebhookJwk__Output } from './tailsync/v1/WebhookJwk';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tailsync: {
    v1: {
      ActivityRequest: MessageTypeDefinition<_tailsync_v1_ActivityRequest, _tailsync_v1_ActivityRequest__Output>
      AttemptView: MessageTypeDefinition<_tailsync_v1_AttemptView, _tailsync_v1_AttemptView__Output>
      AttentionSubscription: MessageTypeDefinition<_tailsync_v1_AttentionSubscription, _tailsync_v1_AttentionSubscription__Output>
      BackfillDeliveriesRequest: MessageTypeDefinition<_tailsync_v1_BackfillDeliveriesRequest, _tailsync_v1_BackfillDeliveriesRequest__Output>
      BackfillList: MessageTypeDefinition<_tailsync_v1_BackfillList, _tailsync_v1_BackfillList__Output>
      BackfillReply: MessageTypeDefinition<_tailsync_v1_BackfillReply, _tailsync_v1_BackfillReply__Output>
      BackfillRequest: MessageTypeDefinition<_tailsync_v1_BackfillRequest, _tailsync_v1_BackfillRequest__Output>
      BackfillView: MessageTypeDefinition<_tailsync_v1_BackfillView, _tailsync_v1_BackfillView__Output>
      BackfillsReply: MessageTypeDefinition<_tailsync_v1_BackfillsReply, _tailsync_v1_BackfillsReply__Output>
      DeleteSubscriptionReply: MessageTypeDefinition<_tailsync_v1_DeleteSubscriptionReply, _tailsync_v1_DeleteSubscriptionReply__Output>
      DeliveryActivityReply: MessageTypeDefinition<_tailsync_v1_DeliveryActivityReply, _tailsync_v1_DeliveryActivityReply__Output>
      DeliveryPage: MessageTypeDefinition<_tailsync_v1_DeliveryPage, _tailsync_v1_DeliveryPage__Output>
      DeliveryPageReply: MessageTypeDefinition<_tailsync_v1_DeliveryPageReply, _tailsync_v1_DeliveryPageReply__Output>
      DeliveryView: MessageTypeDefinition<_tailsync_v1_DeliveryView, _tailsync_v1_DeliveryView__Output>
      EventPage: MessageTypeDefinition<_tailsync_v1_EventPage, _tailsync_v1_EventPage__Output>
      EventPageReply: MessageTypeDefinition<_tailsync_v1_EventPageReply, _tailsync_v1_EventPageReply__Output>
      ListBackfillsRequest: MessageTypeDefinition<_tailsync_v1_ListBackfillsRequest, _tailsync_v1_ListBackfillsRequest__Output>
      ListDeliveriesRequest: MessageTypeDefinition<_tailsync_v1_ListDeliveriesRequest, _tailsync_v1_ListDeliveriesRequest__Output>
      ListEventsRequest: MessageTypeDefinition<_tailsync_v1_ListEventsRequest, _tailsync_v1_ListEventsRequest__Output>
      Messages: MessageTypeDefinition<_tailsync_v1_Messages, _tailsync_v1_Messages__Output>
      MinuteCount: MessageTypeDefinition<_tailsync_v1_MinuteCount, _tailsync_v1_MinuteCount__Output>
      PingReply: MessageTypeDefinition<_tailsync_v1_PingReply, _tailsync_v1_PingReply__Output>
      PingRequest: MessageTypeDefinition<_tailsync_v1_PingRequest, _tailsync_v1_PingRequest__Output>
      PolledEvent: MessageTypeDefinition<_tailsync_v1_PolledEvent, _tailsync_v1_PolledEvent__Output>
      Problem: MessageTypeDefinition<_tailsync_v1_Problem, _tailsync_v1_Problem__Output>
      PutSubscriptionRequest: MessageTypeDefinition<_tailsync_v1_PutSubscriptionRequest, _tailsync_v1_PutSubscriptionRequest__Output>
      RecoverDeliveriesReply: MessageTypeDefinition<_tailsync_v1_RecoverDeliveriesReply, _tailsync_v1_RecoverDeliveriesReply__Output>
      RecoverDeliveriesRequest: MessageTypeDefinition<_tailsync_v1_RecoverDeliveriesRequest, _tailsync_v1_RecoverDeliveriesRequest__Output>
      RecoverDeliveriesResult: MessageTypeDefinition<_tailsync_v1_RecoverDeliveriesResult, _tailsync_v1_RecoverDeliveriesResult__Output>
      RedeliverReply: MessageTypeDefinition<_tailsync_v1_RedeliverReply, _tailsync_v1_RedeliverReply__Output>
      RedeliverRequest: MessageTypeDefinition<_tailsync_v1_RedeliverRequest, _tailsync_v1_RedeliverRequest__Output>
      RedeliverResult: MessageTypeDefinition<_tailsync_v1_RedeliverResult, _tailsync_v1_RedeliverResult__Output>
      RevokeSigningKeyRequest: MessageTypeDefinition<_tailsync_v1_RevokeSigningKeyRequest, _tailsync_v1_RevokeSigningKeyRequest__Output>
      SigningKeySet: MessageTypeDefinition<_tailsync_v1_SigningKeySet, _tailsync_v1_SigningKeySet__Output>
      SigningKeySetReply: MessageTypeDefinition<_tailsync_v1_SigningKeySetReply, _tailsync_v1_SigningKeySetReply__Output>
      SigningKeyView: MessageTypeDefinition<_tailsync_v1_SigningKeyView, _tailsync_v1_SigningKeyView__Output>
      SigningKeys: MessageTypeDefinition<_tailsync_v1_SigningKeys, _tailsync_v1_SigningKeys__Output>
      SigningKeysReply: MessageTypeDefinition<_tailsync_v1_SigningKeysReply, _tailsync_v1_SigningKeysReply__Output>
      SubscriptionHealth: MessageTypeDefinition<_tailsync_v1_SubscriptionHealth, _tailsync_v1_SubscriptionHealth__Output>
      SubscriptionReply: MessageTypeDefinition<_tailsync_v1_SubscriptionReply, _tailsync_v1_SubscriptionReply__Output>
      SubscriptionRequest: MessageTypeDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SubscriptionRequest__Output>
      SubscriptionView: MessageTypeDefinition<_tailsync_v1_SubscriptionView, _tailsync_v1_SubscriptionView__Output>
      TestDiagnostics: MessageTypeDefinition<_tailsync_v1_TestDiagnostics, _tailsync_v1_TestDiagnostics__Output>
      TestSubscriptionReply: MessageTypeDefinition<_tailsync_v1_TestSubscriptionReply, _tailsync_v1_TestSubscriptionReply__Output>
      TestSubscriptionRequest: MessageTypeDefinition<_tailsync_v1_TestSubscriptionRequest, _tailsync_v1_TestSubscriptionRequest__Output>
      TestSubscriptionResult: MessageTypeDefinition<_tailsync_v1_TestSubscriptionResult, _tailsync_v1_TestSubscriptionResult__Output>
      /**
       * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
       */
      WebhookDispatcher: SubtypeConstructor<typeof grpc.Client, _tailsync_v1_WebhookDispatcherClient> & { service: _tailsync_v1_WebhookDispatcherDefinition }
      WebhookJwk: MessageTypeDefinition<_tailsync_v1_WebhookJwk, _tailsync_v1_WebhookJwk__Output>
    }
  }
}

