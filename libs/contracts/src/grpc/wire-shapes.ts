/**
 * The services hand their views and requests to the wire as they are (protobufjs takes a null
 * `optional` field as absent), so a field renamed on one side only would be dropped in silence.
 * These types fail the typecheck when a view and its message do not name the same fields (the
 * gateway's wire-views.ts checks the way back).
 */
import type { ActivityRequest, TailActivityReply, ReaderLag, MinuteCount, DeliveryActivityReply, AttentionSubscription } from '../admin-activity';
import type { PingReply } from '../ping';
import type { ChangeTailNumberRequest, CreateOrMapRequest, TailByMappedIdRequest, TailCountsReply, TailCountsRequest, TailSubmission } from '../tail-commands';
import type { TailHistoryItem, TailListPage, TailListQuery, TailMappingView, TailView } from '../tails';
import type {
  AttemptView, DeliveryPage, DeliveryView, ListDeliveriesRequest, PutSubscriptionRequest, RecoverDeliveriesRequest, RecoverDeliveriesResult,
  RedeliverRequest, RedeliverResult, SubscriptionHealth, SubscriptionView, TestDiagnostics, TestSubscriptionResult,
} from '../webhooks';
import type { EventPageView, ListEventsRequest, PolledEventView } from '../webhook-event-feed';
import type * as wire from './wire';

/** A message's own fields: without the virtual oneof fields proto-loader adds (`_x`, `result`). */
type Fields<M> = Exclude<keyof M, `_${string}`>;
type Same<A, B> = [Exclude<keyof A, B>, Exclude<B, keyof A>] extends [never, never] ? true : { onlyInView: Exclude<keyof A, B>; onlyOnWire: Exclude<B, keyof A> };

/** Each entry is `true` while the view and the message agree; otherwise the typecheck names the odd fields. */
export const WIRE_SHAPES_AGREE: {
  tailView: Same<TailView, Fields<wire.TailView>>;
  tailMapping: Same<TailMappingView, Fields<wire.TailMapping>>;
  tailPage: Same<TailListPage, Fields<wire.TailPage>>;
  tailSubmission: Same<TailSubmission, Fields<wire.TailSubmission>>;
  createOrMapRequest: Same<CreateOrMapRequest, Fields<wire.CreateOrMapRequest>>;
  tailReference: Same<TailByMappedIdRequest, Fields<wire.TailReference>>;
  changeTailNumber: Same<ChangeTailNumberRequest, Fields<wire.ChangeTailNumberRequest>>;
  listTails: Same<TailListQuery, Fields<wire.ListTailsRequest>>;
  historyItem: Same<Omit<TailHistoryItem, 'data'> & { dataJson: string }, Fields<wire.TailHistoryItem>>;
  countTailsRequest: Same<TailCountsRequest, Fields<wire.CountTailsRequest>>;
  countTailsReply: Same<TailCountsReply, Fields<wire.CountTailsReply>>;
  activityRequest: Same<ActivityRequest, Fields<wire.ActivityRequest>>;
  minuteCount: Same<MinuteCount, Fields<wire.MinuteCount>>;
  readerLag: Same<ReaderLag, Fields<wire.ReaderLag>>;
  tailActivity: Same<TailActivityReply, Fields<wire.TailActivityReply>>;
  deliveryActivity: Same<DeliveryActivityReply, Fields<wire.DeliveryActivityReply>>;
  attention: Same<AttentionSubscription, Fields<wire.AttentionSubscription>>;
  ping: Same<PingReply, Fields<wire.PingReply>>;
  putSubscription: Same<PutSubscriptionRequest, Fields<wire.PutSubscriptionRequest>>;
  subscriptionView: Same<SubscriptionView, Fields<wire.SubscriptionView>>;
  subscriptionHealth: Same<SubscriptionHealth, Fields<wire.SubscriptionHealth>>;
  testResult: Same<TestSubscriptionResult, Fields<wire.TestSubscriptionResult>>;
  testDiagnostics: Same<TestDiagnostics, Fields<wire.TestDiagnostics>>;
  listDeliveries: Same<ListDeliveriesRequest, Fields<wire.ListDeliveriesRequest>>;
  deliveryPage: Same<DeliveryPage, Fields<wire.DeliveryPage>>;
  deliveryView: Same<DeliveryView, Fields<wire.DeliveryView>>;
  attempt: Same<AttemptView, Fields<wire.AttemptView>>;
  redeliverRequest: Same<RedeliverRequest, Fields<wire.RedeliverRequest>>;
  redeliverResult: Same<RedeliverResult, Fields<wire.RedeliverResult>>;
  recoverRequest: Same<RecoverDeliveriesRequest, Fields<wire.RecoverDeliveriesRequest>>;
  recoverResult: Same<RecoverDeliveriesResult, Fields<wire.RecoverDeliveriesResult>>;
  listEvents: Same<ListEventsRequest, Fields<wire.ListEventsRequest>>;
  eventPage: Same<EventPageView, Fields<wire.EventPage>>;
  polledEvent: Same<PolledEventView, Fields<wire.PolledEvent>>;
} = {
  tailView: true, tailMapping: true, tailPage: true, tailSubmission: true, createOrMapRequest: true, tailReference: true, changeTailNumber: true,
  listTails: true, historyItem: true, countTailsRequest: true, countTailsReply: true, activityRequest: true, minuteCount: true, readerLag: true,
  tailActivity: true, deliveryActivity: true, attention: true, ping: true, putSubscription: true, subscriptionView: true, subscriptionHealth: true,
  testResult: true, testDiagnostics: true, listDeliveries: true, deliveryPage: true, deliveryView: true, attempt: true, redeliverRequest: true,
  redeliverResult: true, recoverRequest: true, recoverResult: true,
  listEvents: true, eventPage: true, polledEvent: true,
};
