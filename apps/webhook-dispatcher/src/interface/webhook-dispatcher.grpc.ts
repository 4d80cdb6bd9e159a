import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { type DeliveryOrdering, type DeliveryStatus, mapReply, ok, type SignatureScheme, type wire } from '@tailsync/contracts';
import { INSTANCE_ID, pingReply, READINESS_CHECKS, ReadinessCheck, ServedCalls } from '@tailsync/service-kit';
import { AdminRequests } from './admin-requests';
import { BackfillRequests } from './backfill-requests';
import { EventFeedRequests } from './event-feed-requests';
import { RecoveryRequests } from './recovery-requests';
import { SigningKeyRequests } from './signing-key-requests';
import { SubscriptionRequests } from './subscription-requests';

type Call = ServerUnaryCall<unknown, unknown>;

/**
 * Where the gateway's requests enter the dispatcher: the `WebhookDispatcher` service of
 * libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto, each method handed to its handler.
 */
@Controller()
export class WebhookDispatcherGrpc {
  constructor(
    private readonly calls: ServedCalls,
    private readonly subscriptions: SubscriptionRequests,
    private readonly recovery: RecoveryRequests,
    private readonly backfills: BackfillRequests,
    private readonly signingKeys: SigningKeyRequests,
    private readonly admin: AdminRequests,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(INSTANCE_ID) private readonly instance: string,
    private readonly eventFeed: EventFeedRequests,
  ) {}

  @GrpcMethod('WebhookDispatcher', 'Ping')
  ping(body: wire.PingRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, async () => ok(await pingReply('webhook-dispatcher', this.instance, this.checks)));
  }

  @GrpcMethod('WebhookDispatcher', 'PutSubscription')
  putSubscription(body: wire.PutSubscriptionRequest__Output, _: unknown, call: Call) {
    // `signatureScheme` and `ordering` are strings on the wire; the handler refuses one it does not know.
    const request = body as Omit<wire.PutSubscriptionRequest__Output, 'signatureScheme' | 'ordering'> & { signatureScheme?: SignatureScheme; ordering?: DeliveryOrdering };
    return this.calls.reply(call, request, 'subscription', (r) => this.subscriptions.put(r));
  }

  @GrpcMethod('WebhookDispatcher', 'GetSubscription')
  getSubscription(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'subscription', (request) => this.subscriptions.get(request));
  }

  @GrpcMethod('WebhookDispatcher', 'DeleteSubscription')
  deleteSubscription(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'deleted', async (request) => mapReply(await this.subscriptions.delete(request), ({ deleted }) => deleted));
  }

  @GrpcMethod('WebhookDispatcher', 'EnableSubscription')
  enableSubscription(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'subscription', (request) => this.subscriptions.enable(request));
  }

  @GrpcMethod('WebhookDispatcher', 'EnableSubscriptionByOperator')
  enableSubscriptionByOperator(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'subscription', (request) => this.subscriptions.enableByOperator(request));
  }

  @GrpcMethod('WebhookDispatcher', 'DisableSubscription')
  disableSubscription(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'subscription', (request) => this.subscriptions.disable(request));
  }

  @GrpcMethod('WebhookDispatcher', 'TestSubscription')
  testSubscription(body: wire.TestSubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, { payloadToEcho: parsedPayload(body.payloadJson) }, 'test', (request) => this.subscriptions.test(request));
  }

  @GrpcMethod('WebhookDispatcher', 'ListDeliveries')
  listDeliveries(body: wire.ListDeliveriesRequest__Output, _: unknown, call: Call) {
    // `status` is a string on the wire; the handler refuses one it does not know.
    const request = body as Omit<wire.ListDeliveriesRequest__Output, 'status'> & { status?: DeliveryStatus };
    return this.calls.reply(call, request, 'page', (r) => this.subscriptions.list(r));
  }

  @GrpcMethod('WebhookDispatcher', 'Redeliver')
  redeliver(body: wire.RedeliverRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'redelivery', (request) => this.subscriptions.redeliver(request));
  }

  @GrpcMethod('WebhookDispatcher', 'RecoverDeliveries')
  recoverDeliveries(body: wire.RecoverDeliveriesRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'recovery', (request) => this.recovery.recover(request));
  }

  @GrpcMethod('WebhookDispatcher', 'BackfillDeliveries')
  backfillDeliveries(body: wire.BackfillDeliveriesRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'backfill', (request) => this.backfills.backfill(request));
  }

  @GrpcMethod('WebhookDispatcher', 'GetBackfill')
  getBackfill(body: wire.BackfillRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'backfill', (request) => this.backfills.get(request));
  }

  @GrpcMethod('WebhookDispatcher', 'CancelBackfill')
  cancelBackfill(body: wire.BackfillRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'backfill', (request) => this.backfills.cancel(request));
  }

  @GrpcMethod('WebhookDispatcher', 'ListBackfills')
  listBackfills(body: wire.ListBackfillsRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'backfills', (request) => this.backfills.list(request));
  }

  @GrpcMethod('WebhookDispatcher', 'GetSigningKeySet')
  getSigningKeySet(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'keySet', (request) => this.signingKeys.keySet(request));
  }

  @GrpcMethod('WebhookDispatcher', 'ListSigningKeys')
  listSigningKeys(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'keys', (request) => this.signingKeys.list(request));
  }

  @GrpcMethod('WebhookDispatcher', 'RotateSigningKey')
  rotateSigningKey(body: wire.SubscriptionRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'keys', (request) => this.signingKeys.rotate(request));
  }

  @GrpcMethod('WebhookDispatcher', 'RevokeSigningKey')
  revokeSigningKey(body: wire.RevokeSigningKeyRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'keys', (request) => this.signingKeys.revoke(request));
  }

  @GrpcMethod('WebhookDispatcher', 'RevokeSigningKeyByOperator')
  revokeSigningKeyByOperator(body: wire.RevokeSigningKeyRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'keys', (request) => this.signingKeys.revokeByOperator(request));
  }

  @GrpcMethod('WebhookDispatcher', 'ReadActivity')
  readActivity(body: wire.ActivityRequest__Output, _: unknown, call: Call) {
    return this.calls.answer(call, body, (request) => this.admin.activity(request));
  }

  @GrpcMethod('WebhookDispatcher', 'ListEvents')
  listEvents(body: wire.ListEventsRequest__Output, _: unknown, call: Call) {
    return this.calls.reply(call, body, 'page', (request) => this.eventFeed.list(request));
  }
}

/** The test call's body as the gateway sent it; what is not JSON reaches the handler's own check as `undefined`. */
function parsedPayload(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
