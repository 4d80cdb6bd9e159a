// Original file: libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ActivityRequest as _tailsync_v1_ActivityRequest, ActivityRequest__Output as _tailsync_v1_ActivityRequest__Output } from '../../tailsync/v1/ActivityRequest';
import type { BackfillDeliveriesRequest as _tailsync_v1_BackfillDeliveriesRequest, BackfillDeliveriesRequest__Output as _tailsync_v1_BackfillDeliveriesRequest__Output } from '../../tailsync/v1/BackfillDeliveriesRequest';
import type { BackfillReply as _tailsync_v1_BackfillReply, BackfillReply__Output as _tailsync_v1_BackfillReply__Output } from '../../tailsync/v1/BackfillReply';
import type { BackfillRequest as _tailsync_v1_BackfillRequest, BackfillRequest__Output as _tailsync_v1_BackfillRequest__Output } from '../../tailsync/v1/BackfillRequest';
import type { BackfillsReply as _tailsync_v1_BackfillsReply, BackfillsReply__Output as _tailsync_v1_BackfillsReply__Output } from '../../tailsync/v1/BackfillsReply';
import type { DeleteSubscriptionReply as _tailsync_v1_DeleteSubscriptionReply, DeleteSubscriptionReply__Output as _tailsync_v1_DeleteSubscriptionReply__Output } from '../../tailsync/v1/DeleteSubscriptionReply';
import type { DeliveryActivityReply as _tailsync_v1_DeliveryActivityReply, DeliveryActivityReply__Output as _tailsync_v1_DeliveryActivityReply__Output } from '../../tailsync/v1/DeliveryActivityReply';
import type { DeliveryPageReply as _tailsync_v1_DeliveryPageReply, DeliveryPageReply__Output as _tailsync_v1_DeliveryPageReply__Output } from '../../tailsync/v1/DeliveryPageReply';
import type { EventPageReply as _tailsync_v1_EventPageReply, EventPageReply__Output as _tailsync_v1_EventPageReply__Output } from '../../tailsync/v1/EventPageReply';
import type { ListBackfillsRequest as _tailsync_v1_ListBackfillsRequest, ListBackfillsRequest__Output as _tailsync_v1_ListBackfillsRequest__Output } from '../../tailsync/v1/ListBackfillsRequest';
import type { ListDeliveriesRequest as _tailsync_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _tailsync_v1_ListDeliveriesRequest__Output } from '../../tailsync/v1/ListDeliveriesRequest';
import type { ListEventsRequest as _tailsync_v1_ListEventsRequest, ListEventsRequest__Output as _tailsync_v1_ListEventsRequest__Output } from '../../tailsync/v1/ListEventsRequest';
import type { PingReply as _tailsync_v1_PingReply, PingReply__Output as _tailsync_v1_PingReply__Output } from '../../tailsync/v1/PingReply';
import type { PingRequest as _tailsync_v1_PingRequest, PingRequest__Output as _tailsync_v1_PingRequest__Output } from '../../tailsync/v1/PingRequest';
import type { PutSubscriptionRequest as _tailsync_v1_PutSubscriptionRequest, PutSubscriptionRequest__Output as _tailsync_v1_PutSubscriptionRequest__Output } from '../../tailsync/v1/PutSubscriptionRequest';
import type { RecoverDeliveriesReply as _tailsync_v1_RecoverDeliveriesReply, RecoverDeliveriesReply__Output as _tailsync_v1_RecoverDeliveriesReply__Output } from '../../tailsync/v1/RecoverDeliveriesReply';
import type { RecoverDeliveriesRequest as _tailsync_v1_RecoverDeliveriesRequest, RecoverDeliveriesRequest__Output as _tailsync_v1_RecoverDeliveriesRequest__Output } from '../../tailsync/v1/RecoverDeliveriesRequest';
import type { RedeliverReply as _tailsync_v1_RedeliverReply, RedeliverReply__Output as _tailsync_v1_RedeliverReply__Output } from '../../tailsync/v1/RedeliverReply';
import type { RedeliverRequest as _tailsync_v1_RedeliverRequest, RedeliverRequest__Output as _tailsync_v1_RedeliverRequest__Output } from '../../tailsync/v1/RedeliverRequest';
import type { RevokeSigningKeyRequest as _tailsync_v1_RevokeSigningKeyRequest, RevokeSigningKeyRequest__Output as _tailsync_v1_RevokeSigningKeyRequest__Output } from '../../tailsync/v1/RevokeSigningKeyRequest';
import type { SigningKeySetReply as _tailsync_v1_SigningKeySetReply, SigningKeySetReply__Output as _tailsync_v1_SigningKeySetReply__Output } from '../../tailsync/v1/SigningKeySetReply';
import type { SigningKeysReply as _tailsync_v1_SigningKeysReply, SigningKeysReply__Output as _tailsync_v1_SigningKeysReply__Output } from '../../tailsync/v1/SigningKeysReply';
import type { SubscriptionReply as _tailsync_v1_SubscriptionReply, SubscriptionReply__Output as _tailsync_v1_SubscriptionReply__Output } from '../../tailsync/v1/SubscriptionReply';
import type { SubscriptionRequest as _tailsync_v1_SubscriptionRequest, SubscriptionRequest__Output as _tailsync_v1_SubscriptionRequest__Output } from '../../tailsync/v1/SubscriptionRequest';
import type { TestSubscriptionReply as _tailsync_v1_TestSubscriptionReply, TestSubscriptionReply__Output as _tailsync_v1_TestSubscriptionReply__Output } from '../../tailsync/v1/TestSubscriptionReply';
import type { TestSubscriptionRequest as _tailsync_v1_TestSubscriptionRequest, TestSubscriptionRequest__Output as _tailsync_v1_TestSubscriptionRequest__Output } from '../../tailsync/v1/TestSubscriptionRequest';

/**
 * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
 */
export interface WebhookDispatcherClient extends grpc.Client {
  /**
   * Queues a job that sends the events still on the input topic since a time that the domain has no delivery for.
   */
  BackfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  BackfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  BackfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  BackfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  /**
   * Queues a job that sends the events still on the input topic since a time that the domain has no delivery for.
   */
  backfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  backfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  backfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  backfillDeliveries(argument: _tailsync_v1_BackfillDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Stops a queued or running backfill job (between pages); the deliveries it stored stay.
   */
  CancelBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  CancelBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  CancelBackfill(argument: _tailsync_v1_BackfillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  CancelBackfill(argument: _tailsync_v1_BackfillRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  /**
   * Stops a queued or running backfill job (between pages); the deliveries it stored stay.
   */
  cancelBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  cancelBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  cancelBackfill(argument: _tailsync_v1_BackfillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  cancelBackfill(argument: _tailsync_v1_BackfillRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  
  DeleteSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_DeleteSubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The admin API's Disable: idempotent, a subscription already disabled keeps its reason.
   */
  DisableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  DisableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  DisableSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  DisableSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  /**
   * The admin API's Disable: idempotent, a subscription already disabled keeps its reason.
   */
  disableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  disableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  disableSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  disableSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The tenant's Enable: a conflict while an operator's disable holds.
   */
  EnableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  /**
   * The tenant's Enable: a conflict while an operator's disable holds.
   */
  enableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The admin API's Enable: lifts any disable, an operator's too.
   */
  EnableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  EnableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  /**
   * The admin API's Enable: lifts any disable, an operator's too.
   */
  enableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  enableSubscriptionByOperator(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * One of the domain's backfill jobs.
   */
  GetBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  GetBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  GetBackfill(argument: _tailsync_v1_BackfillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  GetBackfill(argument: _tailsync_v1_BackfillRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  /**
   * One of the domain's backfill jobs.
   */
  getBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  getBackfill(argument: _tailsync_v1_BackfillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  getBackfill(argument: _tailsync_v1_BackfillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  getBackfill(argument: _tailsync_v1_BackfillRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The domain's Ed25519 public keys, as the public JWK Set endpoint serves them.
   */
  GetSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  GetSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  GetSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  GetSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  /**
   * The domain's Ed25519 public keys, as the public JWK Set endpoint serves them.
   */
  getSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  getSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  getSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  getSigningKeySet(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeySetReply__Output>): grpc.ClientUnaryCall;
  
  GetSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The domain's recent backfill jobs, newest first.
   */
  ListBackfills(argument: _tailsync_v1_ListBackfillsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  ListBackfills(argument: _tailsync_v1_ListBackfillsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  ListBackfills(argument: _tailsync_v1_ListBackfillsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  ListBackfills(argument: _tailsync_v1_ListBackfillsRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  /**
   * The domain's recent backfill jobs, newest first.
   */
  listBackfills(argument: _tailsync_v1_ListBackfillsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  listBackfills(argument: _tailsync_v1_ListBackfillsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  listBackfills(argument: _tailsync_v1_ListBackfillsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  listBackfills(argument: _tailsync_v1_ListBackfillsRequest, callback: grpc.requestCallback<_tailsync_v1_BackfillsReply__Output>): grpc.ClientUnaryCall;
  
  ListDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _tailsync_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_DeliveryPageReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The polling door: the domain's events since its subscription, oldest first, each with the
   * headers a callback of it carries now.
   */
  ListEvents(argument: _tailsync_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _tailsync_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _tailsync_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _tailsync_v1_ListEventsRequest, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  /**
   * The polling door: the domain's events since its subscription, oldest first, each with the
   * headers a callback of it carries now.
   */
  listEvents(argument: _tailsync_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _tailsync_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _tailsync_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _tailsync_v1_ListEventsRequest, callback: grpc.requestCallback<_tailsync_v1_EventPageReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The domain's signing keys, with when each signs and retires.
   */
  ListSigningKeys(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  ListSigningKeys(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  ListSigningKeys(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  ListSigningKeys(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  /**
   * The domain's signing keys, with when each signs and retires.
   */
  listSigningKeys(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  listSigningKeys(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  listSigningKeys(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  listSigningKeys(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  
  Ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  Ping(argument: _tailsync_v1_PingRequest, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  ping(argument: _tailsync_v1_PingRequest, callback: grpc.requestCallback<_tailsync_v1_PingReply__Output>): grpc.ClientUnaryCall;
  
  PutSubscription(argument: _tailsync_v1_PutSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  PutSubscription(argument: _tailsync_v1_PutSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  PutSubscription(argument: _tailsync_v1_PutSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  PutSubscription(argument: _tailsync_v1_PutSubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  putSubscription(argument: _tailsync_v1_PutSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  putSubscription(argument: _tailsync_v1_PutSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  putSubscription(argument: _tailsync_v1_PutSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  putSubscription(argument: _tailsync_v1_PutSubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SubscriptionReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Operators only: deliveries per minute, consumer lag, subscriptions that need attention.
   */
  ReadActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  ReadActivity(argument: _tailsync_v1_ActivityRequest, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  /**
   * Operators only: deliveries per minute, consumer lag, subscriptions that need attention.
   */
  readActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  readActivity(argument: _tailsync_v1_ActivityRequest, callback: grpc.requestCallback<_tailsync_v1_DeliveryActivityReply__Output>): grpc.ClientUnaryCall;
  
  RecoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _tailsync_v1_RecoverDeliveriesRequest, callback: grpc.requestCallback<_tailsync_v1_RecoverDeliveriesReply__Output>): grpc.ClientUnaryCall;
  
  Redeliver(argument: _tailsync_v1_RedeliverRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  Redeliver(argument: _tailsync_v1_RedeliverRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  Redeliver(argument: _tailsync_v1_RedeliverRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  Redeliver(argument: _tailsync_v1_RedeliverRequest, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  redeliver(argument: _tailsync_v1_RedeliverRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  redeliver(argument: _tailsync_v1_RedeliverRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  redeliver(argument: _tailsync_v1_RedeliverRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  redeliver(argument: _tailsync_v1_RedeliverRequest, callback: grpc.requestCallback<_tailsync_v1_RedeliverReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Takes a key out of the JWK Set at once; when it was signing, the next key signs at once (one is
   * made if none waits). Not found when the domain publishes no key of that kid.
   */
  RevokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  /**
   * Takes a key out of the JWK Set at once; when it was signing, the next key signs at once (one is
   * made if none waits). Not found when the domain publishes no key of that kid.
   */
  revokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKey(argument: _tailsync_v1_RevokeSigningKeyRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The admin API's twin: the same, announced as the operator's.
   */
  RevokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RevokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  /**
   * The admin API's twin: the same, announced as the operator's.
   */
  revokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  revokeSigningKeyByOperator(argument: _tailsync_v1_RevokeSigningKeyRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Publishes a new key that signs a grace period later; a conflict while one waits.
   */
  RotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  /**
   * Publishes a new key that signs a grace period later; a conflict while one waits.
   */
  rotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _tailsync_v1_SubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_SigningKeysReply__Output>): grpc.ClientUnaryCall;
  
  TestSubscription(argument: _tailsync_v1_TestSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _tailsync_v1_TestSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _tailsync_v1_TestSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _tailsync_v1_TestSubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _tailsync_v1_TestSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _tailsync_v1_TestSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _tailsync_v1_TestSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _tailsync_v1_TestSubscriptionRequest, callback: grpc.requestCallback<_tailsync_v1_TestSubscriptionReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Methods marked NO_SIDE_EFFECTS are the only ones the gateway retries on another copy.
 */
export interface WebhookDispatcherHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Queues a job that sends the events still on the input topic since a time that the domain has no delivery for.
   */
  BackfillDeliveries: grpc.handleUnaryCall<_tailsync_v1_BackfillDeliveriesRequest__Output, _tailsync_v1_BackfillReply>;
  
  /**
   * Stops a queued or running backfill job (between pages); the deliveries it stored stay.
   */
  CancelBackfill: grpc.handleUnaryCall<_tailsync_v1_BackfillRequest__Output, _tailsync_v1_BackfillReply>;
  
  DeleteSubscription: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_DeleteSubscriptionReply>;
  
  /**
   * The admin API's Disable: idempotent, a subscription already disabled keeps its reason.
   */
  DisableSubscription: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply>;
  
  /**
   * The tenant's Enable: a conflict while an operator's disable holds.
   */
  EnableSubscription: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply>;
  
  /**
   * The admin API's Enable: lifts any disable, an operator's too.
   */
  EnableSubscriptionByOperator: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply>;
  
  /**
   * One of the domain's backfill jobs.
   */
  GetBackfill: grpc.handleUnaryCall<_tailsync_v1_BackfillRequest__Output, _tailsync_v1_BackfillReply>;
  
  /**
   * The domain's Ed25519 public keys, as the public JWK Set endpoint serves them.
   */
  GetSigningKeySet: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeySetReply>;
  
  GetSubscription: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply>;
  
  /**
   * The domain's recent backfill jobs, newest first.
   */
  ListBackfills: grpc.handleUnaryCall<_tailsync_v1_ListBackfillsRequest__Output, _tailsync_v1_BackfillsReply>;
  
  ListDeliveries: grpc.handleUnaryCall<_tailsync_v1_ListDeliveriesRequest__Output, _tailsync_v1_DeliveryPageReply>;
  
  /**
   * The polling door: the domain's events since its subscription, oldest first, each with the
   * headers a callback of it carries now.
   */
  ListEvents: grpc.handleUnaryCall<_tailsync_v1_ListEventsRequest__Output, _tailsync_v1_EventPageReply>;
  
  /**
   * The domain's signing keys, with when each signs and retires.
   */
  ListSigningKeys: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeysReply>;
  
  Ping: grpc.handleUnaryCall<_tailsync_v1_PingRequest__Output, _tailsync_v1_PingReply>;
  
  PutSubscription: grpc.handleUnaryCall<_tailsync_v1_PutSubscriptionRequest__Output, _tailsync_v1_SubscriptionReply>;
  
  /**
   * Operators only: deliveries per minute, consumer lag, subscriptions that need attention.
   */
  ReadActivity: grpc.handleUnaryCall<_tailsync_v1_ActivityRequest__Output, _tailsync_v1_DeliveryActivityReply>;
  
  RecoverDeliveries: grpc.handleUnaryCall<_tailsync_v1_RecoverDeliveriesRequest__Output, _tailsync_v1_RecoverDeliveriesReply>;
  
  Redeliver: grpc.handleUnaryCall<_tailsync_v1_RedeliverRequest__Output, _tailsync_v1_RedeliverReply>;
  
  /**
   * Takes a key out of the JWK Set at once; when it was signing, the next key signs at once (one is
   * made if none waits). Not found when the domain publishes no key of that kid.
   */
  RevokeSigningKey: grpc.handleUnaryCall<_tailsync_v1_RevokeSigningKeyRequest__Output, _tailsync_v1_SigningKeysReply>;
  
  /**
   * The admin API's twin: the same, announced as the operator's.
   */
  RevokeSigningKeyByOperator: grpc.handleUnaryCall<_tailsync_v1_RevokeSigningKeyRequest__Output, _tailsync_v1_SigningKeysReply>;
  
  /**
   * Publishes a new key that signs a grace period later; a conflict while one waits.
   */
  RotateSigningKey: grpc.handleUnaryCall<_tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeysReply>;
  
  TestSubscription: grpc.handleUnaryCall<_tailsync_v1_TestSubscriptionRequest__Output, _tailsync_v1_TestSubscriptionReply>;
  
}

export interface WebhookDispatcherDefinition extends grpc.ServiceDefinition {
  BackfillDeliveries: MethodDefinition<_tailsync_v1_BackfillDeliveriesRequest, _tailsync_v1_BackfillReply, _tailsync_v1_BackfillDeliveriesRequest__Output, _tailsync_v1_BackfillReply__Output>
  CancelBackfill: MethodDefinition<_tailsync_v1_BackfillRequest, _tailsync_v1_BackfillReply, _tailsync_v1_BackfillRequest__Output, _tailsync_v1_BackfillReply__Output>
  DeleteSubscription: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_DeleteSubscriptionReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_DeleteSubscriptionReply__Output>
  DisableSubscription: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SubscriptionReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply__Output>
  EnableSubscription: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SubscriptionReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply__Output>
  EnableSubscriptionByOperator: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SubscriptionReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply__Output>
  GetBackfill: MethodDefinition<_tailsync_v1_BackfillRequest, _tailsync_v1_BackfillReply, _tailsync_v1_BackfillRequest__Output, _tailsync_v1_BackfillReply__Output>
  GetSigningKeySet: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SigningKeySetReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeySetReply__Output>
  GetSubscription: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SubscriptionReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SubscriptionReply__Output>
  ListBackfills: MethodDefinition<_tailsync_v1_ListBackfillsRequest, _tailsync_v1_BackfillsReply, _tailsync_v1_ListBackfillsRequest__Output, _tailsync_v1_BackfillsReply__Output>
  ListDeliveries: MethodDefinition<_tailsync_v1_ListDeliveriesRequest, _tailsync_v1_DeliveryPageReply, _tailsync_v1_ListDeliveriesRequest__Output, _tailsync_v1_DeliveryPageReply__Output>
  ListEvents: MethodDefinition<_tailsync_v1_ListEventsRequest, _tailsync_v1_EventPageReply, _tailsync_v1_ListEventsRequest__Output, _tailsync_v1_EventPageReply__Output>
  ListSigningKeys: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SigningKeysReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeysReply__Output>
  Ping: MethodDefinition<_tailsync_v1_PingRequest, _tailsync_v1_PingReply, _tailsync_v1_PingRequest__Output, _tailsync_v1_PingReply__Output>
  PutSubscription: MethodDefinition<_tailsync_v1_PutSubscriptionRequest, _tailsync_v1_SubscriptionReply, _tailsync_v1_PutSubscriptionRequest__Output, _tailsync_v1_SubscriptionReply__Output>
  ReadActivity: MethodDefinition<_tailsync_v1_ActivityRequest, _tailsync_v1_DeliveryActivityReply, _tailsync_v1_ActivityRequest__Output, _tailsync_v1_DeliveryActivityReply__Output>
  RecoverDeliveries: MethodDefinition<_tailsync_v1_RecoverDeliveriesRequest, _tailsync_v1_RecoverDeliveriesReply, _tailsync_v1_RecoverDeliveriesRequest__Output, _tailsync_v1_RecoverDeliveriesReply__Output>
  Redeliver: MethodDefinition<_tailsync_v1_RedeliverRequest, _tailsync_v1_RedeliverReply, _tailsync_v1_RedeliverRequest__Output, _tailsync_v1_RedeliverReply__Output>
  RevokeSigningKey: MethodDefinition<_tailsync_v1_RevokeSigningKeyRequest, _tailsync_v1_SigningKeysReply, _tailsync_v1_RevokeSigningKeyRequest__Output, _tailsync_v1_SigningKeysReply__Output>
  RevokeSigningKeyByOperator: MethodDefinition<_tailsync_v1_RevokeSigningKeyRequest, _tailsync_v1_SigningKeysReply, _tailsync_v1_RevokeSigningKeyRequest__Output, _tailsync_v1_SigningKeysReply__Output>
  RotateSigningKey: MethodDefinition<_tailsync_v1_SubscriptionRequest, _tailsync_v1_SigningKeysReply, _tailsync_v1_SubscriptionRequest__Output, _tailsync_v1_SigningKeysReply__Output>
  TestSubscription: MethodDefinition<_tailsync_v1_TestSubscriptionRequest, _tailsync_v1_TestSubscriptionReply, _tailsync_v1_TestSubscriptionRequest__Output, _tailsync_v1_TestSubscriptionReply__Output>
}
