import {
  type BackfillDeliveriesRequest, type BackfillView, type EventPageView, type ListEventsRequest, type DeliveryActivityReply, type DeliveryPage, type ListDeliveriesRequest, PROTO_FILES, type PutSubscriptionRequest, type RecoverDeliveriesRequest,
  type RecoverDeliveriesResult, type RedeliverResult, type SigningKeySetView, type SigningKeysView, type SubscriptionView, type TestSubscriptionResult, type wire,
} from '@tailsync/contracts';
import { resultOf } from './reply';
import type { BudgetedCaller, ServiceChannel } from './service-channel';
import { backfillView, deliveryActivity, deliveryPage, eventPage, pingReply, signingKeys, signingKeySet, subscriptionView, testResult } from './wire-views';

export const DISPATCHER_SERVICE = { name: 'webhook-dispatcher', service: 'WebhookDispatcher', protoFile: PROTO_FILES.webhookDispatcher } as const;

/** webhook-dispatcher's requests as the gateway makes them: views in, problems thrown as HTTP problems. */
export class DispatcherClient {
  constructor(private readonly channel: ServiceChannel<wire.WebhookDispatcherDefinition>) {}

  async putSubscription(caller: BudgetedCaller, request: PutSubscriptionRequest): Promise<SubscriptionView> {
    return subscriptionView(resultOf(await this.channel.call('PutSubscription', caller, request), 'subscription'));
  }

  async getSubscription(caller: BudgetedCaller): Promise<SubscriptionView> {
    return subscriptionView(resultOf(await this.channel.call('GetSubscription', caller, {}), 'subscription'));
  }

  async deleteSubscription(caller: BudgetedCaller): Promise<void> {
    resultOf(await this.channel.call('DeleteSubscription', caller, {}), 'deleted');
  }

  async enableSubscription(caller: BudgetedCaller): Promise<SubscriptionView> {
    return subscriptionView(resultOf(await this.channel.call('EnableSubscription', caller, {}), 'subscription'));
  }

  /** The admin API's Enable: lifts an operator's disable too (the tenant's Enable cannot). */
  async enableSubscriptionByOperator(caller: BudgetedCaller): Promise<SubscriptionView> {
    return subscriptionView(resultOf(await this.channel.call('EnableSubscriptionByOperator', caller, {}), 'subscription'));
  }

  async disableSubscription(caller: BudgetedCaller): Promise<SubscriptionView> {
    return subscriptionView(resultOf(await this.channel.call('DisableSubscription', caller, {}), 'subscription'));
  }

  async test(caller: BudgetedCaller, payloadToEcho: unknown): Promise<TestSubscriptionResult> {
    return testResult(resultOf(await this.channel.call('TestSubscription', caller, { payloadJson: JSON.stringify(payloadToEcho) }), 'test'));
  }

  async listDeliveries(caller: BudgetedCaller, request: ListDeliveriesRequest): Promise<DeliveryPage> {
    return deliveryPage(resultOf(await this.channel.call('ListDeliveries', caller, request), 'page'));
  }

  async redeliver(caller: BudgetedCaller, id: string): Promise<RedeliverResult> {
    const { status, ...redelivery } = resultOf(await this.channel.call('Redeliver', caller, { id }), 'redelivery');
    return { ...redelivery, status: status as RedeliverResult['status'] };
  }

  async recover(caller: BudgetedCaller, request: RecoverDeliveriesRequest): Promise<RecoverDeliveriesResult> {
    const { recoveryId, deliveries } = resultOf(await this.channel.call('RecoverDeliveries', caller, request), 'recovery');
    return { recoveryId, deliveries };
  }

  /** Queues a backfill job of the caller's domain. */
  async backfill(caller: BudgetedCaller, request: BackfillDeliveriesRequest): Promise<BackfillView> {
    return backfillView(resultOf(await this.channel.call('BackfillDeliveries', caller, request), 'backfill'));
  }

  async getBackfill(caller: BudgetedCaller, backfillId: string): Promise<BackfillView> {
    return backfillView(resultOf(await this.channel.call('GetBackfill', caller, { backfillId }), 'backfill'));
  }

  async cancelBackfill(caller: BudgetedCaller, backfillId: string): Promise<BackfillView> {
    return backfillView(resultOf(await this.channel.call('CancelBackfill', caller, { backfillId }), 'backfill'));
  }

  /** The domain's recent backfill jobs, newest first. */
  async backfills(caller: BudgetedCaller): Promise<BackfillView[]> {
    return resultOf(await this.channel.call('ListBackfills', caller, {}), 'backfills').items.map(backfillView);
  }

  /** The public JWK Set of the caller's domain (the public endpoint calls it as the domain it names). */
  async signingKeySet(caller: BudgetedCaller): Promise<SigningKeySetView> {
    return signingKeySet(resultOf(await this.channel.call('GetSigningKeySet', caller, {}), 'keySet'));
  }

  async signingKeys(caller: BudgetedCaller): Promise<SigningKeysView> {
    return signingKeys(resultOf(await this.channel.call('ListSigningKeys', caller, {}), 'keys'));
  }

  async rotateSigningKey(caller: BudgetedCaller): Promise<SigningKeysView> {
    return signingKeys(resultOf(await this.channel.call('RotateSigningKey', caller, {}), 'keys'));
  }

  /** Takes a key out of the JWK Set now; the next key signs now. */
  async revokeSigningKey(caller: BudgetedCaller, kid: string): Promise<SigningKeysView> {
    return signingKeys(resultOf(await this.channel.call('RevokeSigningKey', caller, { kid }), 'keys'));
  }

  /** The admin API's revocation (announced as the operator's). */
  async revokeSigningKeyByOperator(caller: BudgetedCaller, kid: string): Promise<SigningKeysView> {
    return signingKeys(resultOf(await this.channel.call('RevokeSigningKeyByOperator', caller, { kid }), 'keys'));
  }

  async activity(caller: BudgetedCaller, since: string): Promise<DeliveryActivityReply> {
    return deliveryActivity(await this.channel.call('ReadActivity', caller, { since }));
  }

  async ping(caller: BudgetedCaller) {
    return pingReply(await this.channel.call('Ping', caller, {}));
  }

  close(): void {
    this.channel.close();
  }

  /** The polling door: the caller's events since its subscription, oldest first, signed as callbacks. */
  async listEvents(caller: BudgetedCaller, request: ListEventsRequest): Promise<EventPageView> {
    return eventPage(resultOf(await this.channel.call('ListEvents', caller, request), 'page'));
  }
}
