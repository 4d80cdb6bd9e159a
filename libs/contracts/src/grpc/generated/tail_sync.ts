import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ActivityRequest as _tailsync_v1_ActivityRequest, ActivityRequest__Output as _tailsync_v1_ActivityRequest__Output } from './tailsync/v1/ActivityRequest';
import type { ChangeTailNumberRequest as _tailsync_v1_ChangeTailNumberRequest, ChangeTailNumberRequest__Output as _tailsync_v1_ChangeTailNumberRequest__Output } from './tailsync/v1/ChangeTailNumberRequest';
import type { CountTailsReply as _tailsync_v1_CountTailsReply, CountTailsReply__Output as _tailsync_v1_CountTailsReply__Output } from './tailsync/v1/CountTailsReply';
import type { CountTailsRequest as _tailsync_v1_CountTailsRequest, CountTailsRequest__Output as _tailsync_v1_CountTailsRequest__Output } from './tailsync/v1/CountTailsRequest';
import type { CreateOrMapOutcome as _tailsync_v1_CreateOrMapOutcome, CreateOrMapOutcome__Output as _tailsync_v1_CreateOrMapOutcome__Output } from './tailsync/v1/CreateOrMapOutcome';
import type { CreateOrMapOutcomes as _tailsync_v1_CreateOrMapOutcomes, CreateOrMapOutcomes__Output as _tailsync_v1_CreateOrMapOutcomes__Output } from './tailsync/v1/CreateOrMapOutcomes';
import type { CreateOrMapReply as _tailsync_v1_CreateOrMapReply, CreateOrMapReply__Output as _tailsync_v1_CreateOrMapReply__Output } from './tailsync/v1/CreateOrMapReply';
import type { CreateOrMapRequest as _tailsync_v1_CreateOrMapRequest, CreateOrMapRequest__Output as _tailsync_v1_CreateOrMapRequest__Output } from './tailsync/v1/CreateOrMapRequest';
import type { GetTailsReply as _tailsync_v1_GetTailsReply, GetTailsReply__Output as _tailsync_v1_GetTailsReply__Output } from './tailsync/v1/GetTailsReply';
import type { GetTailsRequest as _tailsync_v1_GetTailsRequest, GetTailsRequest__Output as _tailsync_v1_GetTailsRequest__Output } from './tailsync/v1/GetTailsRequest';
import type { ListTailsRequest as _tailsync_v1_ListTailsRequest, ListTailsRequest__Output as _tailsync_v1_ListTailsRequest__Output } from './tailsync/v1/ListTailsRequest';
import type { Messages as _tailsync_v1_Messages, Messages__Output as _tailsync_v1_Messages__Output } from './tailsync/v1/Messages';
import type { MinuteCount as _tailsync_v1_MinuteCount, MinuteCount__Output as _tailsync_v1_MinuteCount__Output } from './tailsync/v1/MinuteCount';
import type { PingReply as _tailsync_v1_PingReply, PingReply__Output as _tailsync_v1_PingReply__Output } from './tailsync/v1/PingReply';
import type { PingRequest as _tailsync_v1_PingRequest, PingRequest__Output as _tailsync_v1_PingRequest__Output } from './tailsync/v1/PingRequest';
import type { Problem as _tailsync_v1_Problem, Problem__Output as _tailsync_v1_Problem__Output } from './tailsync/v1/Problem';
import type { ReaderLag as _tailsync_v1_ReaderLag, ReaderLag__Output as _tailsync_v1_ReaderLag__Output } from './tailsync/v1/ReaderLag';
import type { TailActivityReply as _tailsync_v1_TailActivityReply, TailActivityReply__Output as _tailsync_v1_TailActivityReply__Output } from './tailsync/v1/TailActivityReply';
import type { TailHistory as _tailsync_v1_TailHistory, TailHistory__Output as _tailsync_v1_TailHistory__Output } from './tailsync/v1/TailHistory';
import type { TailHistoryItem as _tailsync_v1_TailHistoryItem, TailHistoryItem__Output as _tailsync_v1_TailHistoryItem__Output } from './tailsync/v1/TailHistoryItem';
import type { TailHistoryReply as _tailsync_v1_TailHistoryReply, TailHistoryReply__Output as _tailsync_v1_TailHistoryReply__Output } from './tailsync/v1/TailHistoryReply';
import type { TailMapping as _tailsync_v1_TailMapping, TailMapping__Output as _tailsync_v1_TailMapping__Output } from './tailsync/v1/TailMapping';
import type { TailPage as _tailsync_v1_TailPage, TailPage__Output as _tailsync_v1_TailPage__Output } from './tailsync/v1/TailPage';
import type { TailPageReply as _tailsync_v1_TailPageReply, TailPageReply__Output as _tailsync_v1_TailPageReply__Output } from './tailsync/v1/TailPageReply';
import type { TailReference as _tailsync_v1_TailReference, TailReference__Output as _tailsync_v1_TailReference__Output } from './tailsync/v1/TailReference';
import type { TailReplies as _tailsync_v1_TailReplies, TailReplies__Output as _tailsync_v1_TailReplies__Output } from './tailsync/v1/TailReplies';
import type { TailReply as _tailsync_v1_TailReply, TailReply__Output as _tailsync_v1_TailReply__Output } from './tailsync/v1/TailReply';
import type { TailSubmission as _tailsync_v1_TailSubmission, TailSubmission__Output as _tailsync_v1_TailSubmission__Output } from './tailsync/v1/TailSubmission';
import type { TailSyncClient as _tailsync_v1_TailSyncClient, TailSyncDefinition as _tailsync_v1_TailSyncDefinition } from './tailsync/v1/TailSync';
import type { TailView as _tailsync_v1_TailView, TailView__Output as _tailsync_v1_TailView__Output } from './tailsync/v1/TailView';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tailsync: {
    v1: {
      ActivityRequest: MessageTypeDefinition<_tailsync_v1_ActivityRequest, _tailsync_v1_ActivityRequest__Output>
      ChangeTailNumberRequest: MessageTypeDefinition<_tailsync_v1_ChangeTailNumberRequest, _tailsync_v1_ChangeTailNumberRequest__Output>
      CountTailsReply: MessageTypeDefinition<_tailsync_v1_CountTailsReply, _tailsync_v1_CountTailsReply__Output>
      CountTailsRequest: MessageTypeDefinition<_tailsync_v1_CountTailsRequest, _tailsync_v1_CountTailsRequest__Output>
      CreateOrMapOutcome: MessageTypeDefinition<_tailsync_v1_CreateOrMapOutcome, _tailsync_v1_CreateOrMapOutcome__Output>
      CreateOrMapOutcomes: MessageTypeDefinition<_tailsync_v1_CreateOrMapOutcomes, _tailsync_v1_CreateOrMapOutcomes__Output>
      CreateOrMapReply: MessageTypeDefinition<_tailsync_v1_CreateOrMapReply, _tailsync_v1_CreateOrMapReply__Output>
      CreateOrMapRequest: MessageTypeDefinition<_tailsync_v1_CreateOrMapRequest, _tailsync_v1_CreateOrMapRequest__Output>
      GetTailsReply: MessageTypeDefinition<_tailsync_v1_GetTailsReply, _tailsync_v1_GetTailsReply__Output>
      GetTailsRequest: MessageTypeDefinition<_tailsync_v1_GetTailsRequest, _tailsync_v1_GetTailsRequest__Output>
      ListTailsRequest: MessageTypeDefinition<_tailsync_v1_ListTailsRequest, _tailsync_v1_ListTailsRequest__Output>
      Messages: MessageTypeDefinition<_tailsync_v1_Messages, _tailsync_v1_Messages__Output>
      MinuteCount: MessageTypeDefinition<_tailsync_v1_MinuteCount, _tailsync_v1_MinuteCount__Output>
      PingReply: MessageTypeDefinition<_tailsync_v1_PingReply, _tailsync_v1_PingReply__Output>
      PingRequest: MessageTypeDefinition<_tailsync_v1_PingRequest, _tailsync_v1_PingRequest__Output>
      Problem: MessageTypeDefinition<_tailsync_v1_Problem, _tailsync_v1_Problem__Output>
      ReaderLag: MessageTypeDefinition<_tailsync_v1_ReaderLag, _tailsync_v1_ReaderLag__Output>
      TailActivityReply: MessageTypeDefinition<_tailsync_v1_TailActivityReply, _tailsync_v1_TailActivityReply__Output>
      TailHistory: MessageTypeDefinition<_tailsync_v1_TailHistory, _tailsync_v1_TailHistory__Output>
      TailHistoryItem: MessageTypeDefinition<_tailsync_v1_TailHistoryItem, _tailsync_v1_TailHistoryItem__Output>
      TailHistoryReply: MessageTypeDefinition<_tailsync_v1_TailHistoryReply, _tailsync_v1_TailHistoryReply__Output>
      TailMapping: MessageTypeDefinition<_tailsync_v1_TailMapping, _tailsync_v1_TailMapping__Output>
      TailPage: MessageTypeDefinition<_tailsync_v1_TailPage, _tailsync_v1_TailPage__Output>
      TailPageReply: MessageTypeDefinition<_tailsync_v1_TailPageReply, _tailsync_v1_TailPageReply__Output>
      TailReference: MessageTypeDefinition<_tailsync_v1_TailReference, _tailsync_v1_TailReference__Output>
      TailReplies: MessageTypeDefinition<_tailsync_v1_TailReplies, _tailsync_v1_TailReplies__Output>
      TailReply: MessageTypeDefinition<_tailsync_v1_TailReply, _tailsync_v1_TailReply__Output>
      TailSubmission: MessageTypeDefinition<_tailsync_v1_TailSubmission, _tailsync_v1_TailSubmission__Output>
      /**
       * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
       */
      TailSync: SubtypeConstructor<typeof grpc.Client, _tailsync_v1_TailSyncClient> & { service: _tailsync_v1_TailSyncDefinition }
      TailView: MessageTypeDefinition<_tailsync_v1_TailView, _tailsync_v1_TailView__Output>
    }
  }
}

