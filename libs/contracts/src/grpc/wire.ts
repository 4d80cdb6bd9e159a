/**
 * The request contract's message types, generated from libs/contracts/proto (see proto-files.ts).
 * `X` is what a sender may hand over, `X__Output` what a receiver gets (defaults filled in, an
 * absent `optional` field undefined).
 */
export type * from './generated/tailsync/v1/ActivityRequest';
export type * from './generated/tailsync/v1/AttemptView';
export type * from './generated/tailsync/v1/AttentionSubscription';
export type * from './generated/tailsync/v1/ChangeTailNumberRequest';
export type * from './generated/tailsync/v1/CountTailsReply';
export type * from './generated/tailsync/v1/CountTailsRequest';
export type * from './generated/tailsync/v1/CreateOrMapOutcome';
export type * from './generated/tailsync/v1/CreateOrMapOutcomes';
export type * from './generated/tailsync/v1/CreateOrMapReply';
export type * from './generated/tailsync/v1/CreateOrMapRequest';
export type * from './generated/tailsync/v1/DeleteSubscriptionReply';
export type * from './generated/tailsync/v1/DeliveryActivityReply';
export type * from './generated/tailsync/v1/DeliveryPage';
export type * from './generated/tailsync/v1/DeliveryPageReply';
export type * from './generated/tailsync/v1/DeliveryView';
export type * from './generated/tailsync/v1/ListDeliveriesRequest';
export type * from './generated/tailsync/v1/ListTailsRequest';
export type * from './generated/tailsync/v1/Messages';
export type * from './generated/tailsync/v1/MinuteCount';
export type * from './generated/tailsync/v1/PingReply';
export type * from './generated/tailsync/v1/PingRequest';
export type * from './generated/tailsync/v1/Problem';
export type * from './generated/tailsync/v1/PutSubscriptionRequest';
export type * from './generated/tailsync/v1/ReaderLag';
export type * from './generated/tailsync/v1/RecoverDeliveriesReply';
export type * from './generated/tailsync/v1/RecoverDeliveriesRequest';
export type * from './generated/tailsync/v1/RecoverDeliveriesResult';
export type * from './generated/tailsync/v1/RedeliverReply';
export type * from './generated/tailsync/v1/RedeliverRequest';
export type * from './generated/tailsync/v1/RedeliverResult';
export type * from './generated/tailsync/v1/SubscriptionHealth';
export type * from './generated/tailsync/v1/SubscriptionReply';
export type * from './generated/tailsync/v1/SubscriptionRequest';
export type * from './generated/tailsync/v1/SubscriptionView';
export type * from './generated/tailsync/v1/TailActivityReply';
export type * from './generated/tailsync/v1/TailHistory';
export type * from './generated/tailsync/v1/TailHistoryItem';
export type * from './generated/tailsync/v1/TailHistoryReply';
export type * from './generated/tailsync/v1/TailMapping';
export type * from './generated/tailsync/v1/TailPage';
export type * from './generated/tailsync/v1/TailPageReply';
export type * from './generated/tailsync/v1/TailReference';
export type * from './generated/tailsync/v1/TailReply';
export type * from './generated/tailsync/v1/TailSubmission';
export type * from './generated/tailsync/v1/TailView';
export type * from './generated/tailsync/v1/TestDiagnostics';
export type * from './generated/tailsync/v1/TestSubscriptionReply';
export type * from './generated/tailsync/v1/TestSubscriptionRequest';
export type * from './generated/tailsync/v1/TestSubscriptionResult';
export type { TailSyncClient, TailSyncDefinition, TailSyncHandlers } from './generated/tailsync/v1/TailSync';
export type { WebhookDispatcherClient, WebhookDispatcherDefinition, WebhookDispatcherHandlers } from './generated/tailsync/v1/WebhookDispatcher';
