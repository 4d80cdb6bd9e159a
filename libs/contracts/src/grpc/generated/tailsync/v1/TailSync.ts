// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ActivityRequest as _tailsync_v1_ActivityRequest, ActivityRequest__Output as _tailsync_v1_ActivityRequest__Output } from '../../tailsync/v1/ActivityRequest';
import type { ChangeTailNumberRequest as _tailsync_v1_ChangeTailNumberRequest, ChangeTailNumberRequest__Output as _tailsync_v1_ChangeTailNumberRequest__Output } from '../../tailsync/v1/ChangeTailNumberRequest';
import type { CountTailsReply as _tailsync_v1_CountTailsReply, CountTailsReply__Output as _tailsync_v1_CountTailsReply__Output } from '../../tailsync/v1/CountTailsReply';
import type { CountTailsRequest as _tailsync_v1_CountTailsRequest, CountTailsRequest__Output as _tailsync_v1_CountTailsRequest__Output } from '../../tailsync/v1/CountTailsRequest';
import type { CreateOrMapReply as _tailsync_v1_CreateOrMapReply, CreateOrMapReply__Output as _tailsync_v1_CreateOrMapReply__Output } from '../../tailsync/v1/CreateOrMapReply';
import type { CreateOrMapRequest as _tailsync_v1_CreateOrMapRequest, CreateOrMapRequest__Output as _tailsync_v1_CreateOrMapRequest__Output } from '../../tailsync/v1/CreateOrMapRequest';
import type { GetTailsReply as _tailsync_v1_GetTailsReply, GetTailsReply__Output as _tailsync_v1_GetTailsReply__Output } from '../../tailsync/v1/GetTailsReply';
import type { GetTailsRequest as _tailsync_v1_GetTailsRequest, GetTailsRequest__Output as _tailsync_v1_GetTailsRequest__Output } from '../../tailsync/v1/GetTailsRequest';
import type { ListTailsRequest as _tailsync_v1_ListTailsRequest, ListTailsRequest__Output as _tailsync_v1_ListTailsRequest__Output } from '../../tailsync/v1/ListTailsRequest';
import type { PingReply as _tailsync_v1_PingReply, PingReply__Output as _tailsync_v1_PingReply__Output } from '../../tailsync/v1/PingReply';
import type { PingRequest as _tailsync_v1_PingRequest, PingRequest__Output as _tailsync_v1_PingRequest__Output } from '../../tailsync/v1/PingRequest';
import type { TailActivityReply as _tailsync_v1_TailActivityReply, TailActivityReply__Output as _tailsync_v1_TailActivityReply__Output } from '../../tailsync/v1/TailActivityReply';
import type { TailHistoryReply as _tailsync_v1_TailHistoryReply, TailHistoryReply__Output as _tailsync_v1_TailHistoryReply__Output } from '../../tailsync/v1/TailHistoryReply';
import type { TailPageReply as _tailsync_v1_TailPageReply, TailPageReply__Output as _tailsync_v1_TailPageReply__Output } from '../../tailsync/v1/TailPageReply';
import type { TailReference as _tailsync_v1_TailReference, TailReference__Output as _tailsync_v1_TailReference__Output } from '../../tailsync/v1/TailReference';
import type { TailReply as _tailsync_v1_TailReply, TailReply__Output as _tailsync_v1_TailReply__Output } from '../../tailsync/v1/TailReply';

/**
 * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
 */
export interface TailSyncClient extends grpc.Client {
  ChangeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  ChangeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  ChangeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  ChangeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  changeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  changeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  changeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  changeTailNumber(argument: _tailsync_v1_ChangeTailNumberRequest, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Operators only (the gateway checks the admin token): tails per domain, activity per minute.
   */
  CountTails(argument: _tailsync_v1_CountTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  CountTails(argument: _tailsync_v1_CountTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  CountTails(argument: _tailsync_v1_CountTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  CountTails(argument: _tailsync_v1_CountTailsRequest, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  /**
   * Operators only (the gateway checks the admin token): tails per domain, activity per minute.
   */
  countTails(argument: _tailsync_v1_CountTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  countTails(argument: _tailsync_v1_CountTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  countTails(argument: _tailsync_v1_CountTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  countTails(argument: _tailsync_v1_CountTailsRequest, callback: grpc.requestCallback<_tailsync_v1_CountTailsReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Create or map tails, applied in order and independently (a later one sees an earlier one).
   */
  CreateOrMap(argument: _tailsync_v1_CreateOrMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  CreateOrMap(argument: _tailsync_v1_CreateOrMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  CreateOrMap(argument: _tailsync_v1_CreateOrMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  CreateOrMap(argument: _tailsync_v1_CreateOrMapRequest, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  /**
   * Create or map tails, applied in order and independently (a later one sees an earlier one).
   */
  createOrMap(argument: _tailsync_v1_CreateOrMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  createOrMap(argument: _tailsync_v1_CreateOrMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  createOrMap(argument: _tailsync_v1_CreateOrMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  createOrMap(argument: _tailsync_v1_CreateOrMapRequest, callback: grpc.requestCallback<_tailsync_v1_CreateOrMapReply__Output>): grpc.ClientUnaryCall;
  
  Deactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Deactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Deactivate(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Deactivate(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  deactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  deactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  deactivate(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  deactivate(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  
  GetTail(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  GetTail(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  GetTail(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  GetTail(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  getTail(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  getTail(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  getTail(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  getTail(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  
  GetTailHistory(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  GetTailHistory(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  GetTailHistory(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  GetTailHistory(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  getTailHistory(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  getTailHistory(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  getTailHistory(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  getTailHistory(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailHistoryReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Several tails for one caller, each answered as GetTail answers it alone (its own problem, such
   * as not-found, in its own reply): the gateway sends the reads of one caller that arrive while
   * others are in flight as one call.
   */
  GetTails(argument: _tailsync_v1_GetTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  GetTails(argument: _tailsync_v1_GetTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  GetTails(argument: _tailsync_v1_GetTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  GetTails(argument: _tailsync_v1_GetTailsRequest, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  /**
   * Several tails for one caller, each answered as GetTail answers it alone (its own problem, such
   * as not-found, in its own reply): the gateway sends the reads of one caller that arrive while
   * others are in flight as one call.
   */
  getTails(argument: _tailsync_v1_GetTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  getTails(argument: _tailsync_v1_GetTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  getTails(argument: _tailsync_v1_GetTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  getTails(argument: _tailsync_v1_GetTailsRequest, callback: grpc.requestCallback<_tailsync_v1_GetTailsReply__Output>): grpc.ClientUnaryCall;
  
  ListTails(argument: _tailsync_v1_ListTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  ListTails(argument: _tailsync_v1_ListTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  ListTails(argument: _tailsync_v1_ListTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  ListTails(argument: _tailsync_v1_ListTailsRequest, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  listTails(argument: _tailsync_v1_ListTailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  listTails(argument: _tailsync_v1_ListTailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  listTails(argument: _tailsync_v1_ListTailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  listTails(argument: _tailsync_v1_ListTailsRequest, callback: grpc.requestCallback<_tailsync_v1_TailPageReply__Output>): grpc.ClientUnaryCall;
  
  Ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  
  Reactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Reactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Reactivate(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  Reactivate(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  reactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  reactivate(argument: _tailsync_v1_TailReference, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  reactivate(argument: _tailsync_v1_TailReference, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  reactivate(argument: _tailsync_v1_TailReference, callback: grpc.requestCallback<_tailsync_v1_TailReply__Output>): grpc.ClientUnaryCall;
  
  ReadActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, callback: grpc.requestCallback<_tailsync_v1_TailActivityReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
 */
export interface TailSyncHandlers extends grpc.UntypedServiceImplementation {
  ChangeTailNumber: grpc.handleUnaryCall<_tailsync_v1_ChangeTailNumberRequest__Output, _tailsync_v1_TailReply>;
  
  /**
   * Operators only (the gateway checks the admin token): tails per domain, activity per minute.
   */
  CountTails: grpc.handleUnaryCall<_tailsync_v1_CountTailsRequest__Output, _tailsync_v1_CountTailsReply>;
  
  /**
   * Create or map tails, applied in order and independently (a later one sees an earlier one).
   */
  CreateOrMap: grpc.handleUnaryCall<_tailsync_v1_CreateOrMapRequest__Output, _tailsync_v1_CreateOrMapReply>;
  
  Deactivate: grpc.handleUnaryCall<_tailsync_v1_TailReference__Output, _tailsync_v1_TailReply>;
  
  GetTail: grpc.handleUnaryCall<_tailsync_v1_TailReference__Output, _tailsync_v1_TailReply>;
  
  GetTailHistory: grpc.handleUnaryCall<_tailsync_v1_TailReference__Output, _tailsync_v1_TailHistoryReply>;
  
  /**
   * Several tails for one caller, each answered as GetTail answers it alone (its own problem, such
   * as not-found, in its own reply): the gateway sends the reads of one caller that arrive while
   * others are in flight as one call.
   */
  GetTails: grpc.handleUnaryCall<_tailsync_v1_GetTailsRequest__Output, _tailsync_v1_GetTailsReply>;
  
  ListTails: grpc.handleUnaryCall<_tailsync_v1_ListTailsRequest__Output, _tailsync_v1_TailPageReply>;
  
  Ping: grpc.handleUnaryCall<_tailsync_v1_PingRequest__Output, _tailsync_v1_PingReply>;
  
  Reactivate: grpc.handleUnaryCall<_tailsync_v1_TailReference__Output, _tailsync_v1_TailReply>;
  
  ReadActivity: grpc.handleUnaryCall<_tailsync_v1_ActivityRequest__Output, _tailsync_v1_TailActivityReply>;
  
}

export interface TailSyncDefinition extends grpc.ServiceDefinition {
  ChangeTailNumber: MethodDefinition<_tailsync_v1_ChangeTailNumberRequest, _tailsync_v1_TailReply, _tailsync_v1_ChangeTailNumberRequest__Output, _tailsync_v1_TailReply__Output>
  CountTails: MethodDefinition<_tailsync_v1_CountTailsRequest, _tailsync_v1_CountTailsReply, _tailsync_v1_CountTailsRequest__Output, _tailsync_v1_CountTailsReply__Output>
  CreateOrMap: MethodDefinition<_tailsync_v1_CreateOrMapRequest, _tailsync_v1_CreateOrMapReply, _tailsync_v1_CreateOrMapRequest__Output, _tailsync_v1_CreateOrMapReply__Output>
  Deactivate: MethodDefinition<_tailsync_v1_TailReference, _tailsync_v1_TailReply, _tailsync_v1_TailReference__Output, _tailsync_v1_TailReply__Output>
  GetTail: MethodDefinition<_tailsync_v1_TailReference, _tailsync_v1_TailReply, _tailsync_v1_TailReference__Output, _tailsync_v1_TailReply__Output>
  GetTailHistory: MethodDefinition<_tailsync_v1_TailReference, _tailsync_v1_TailHistoryReply, _tailsync_v1_TailReference__Output, _tailsync_v1_TailHistoryReply__Output>
  GetTails: MethodDefinition<_tailsync_v1_GetTailsRequest, _tailsync_v1_GetTailsReply, _tailsync_v1_GetTailsRequest__Output, _tailsync_v1_GetTailsReply__Output>
  ListTails: MethodDefinition<_tailsync_v1_ListTailsRequest, _tailsync_v1_TailPageReply, _tailsync_v1_ListTailsRequest__Output, _tailsync_v1_TailPageReply__Output>
  Ping: MethodDefinition<_tailsync_v1_PingRequest, _tailsync_v1_PingReply, _tailsync_v1_PingRequest__Output, _tailsync_v1_PingReply__Output>
  Reactivate: MethodDefinition<_tailsync_v1_TailReference, _tailsync_v1_TailReply, _tailsync_v1_TailReference__Output, _tailsync_v1_TailReply__Output>
  ReadActivity: MethodDefinition<_tailsync_v1_ActivityRequest, _tailsync_v1_TailActivityReply, _tailsync_v1_ActivityRequest__Output, _tailsync_v1_TailActivityReply__Output>
}
