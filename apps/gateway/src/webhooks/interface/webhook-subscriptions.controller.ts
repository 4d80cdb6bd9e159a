import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse,
  ApiServiceUnavailableResponse, ApiTooManyRequestsResponse,
  ApiOperation, ApiTags,
} from '@nestjs/swagger';
import { PutSubscriptionRequest, registryTexts, WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';
import { Caller } from '../../auth/interface/caller.decorator';
import { deliveriesRequest } from './deliveries-request';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { atLeast } from '../../services/infrastructure/request-budget';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';
import { BackfillDeliveriesDto, BackfillParams, DeliveriesQuery, RecoverDeliveriesDto, SigningKeyParams, SubscriptionDto, TestSubscriptionDto } from './dto/subscription.dto';
import { BackfillView, DeliveryPageView, RecoveryView, RedeliverView, SigningKeysPageView, SubscriptionView, TestResultView } from './dto/subscription-views';
import { TestCallLimit } from '../infrastructure/test-call-limit';
import { EventsQuery } from './dto/events-query';
import { EventPageView } from './dto/event-page-view';

/** How the descriptions name the event types (registry-texts.ts). */
const events = registryTexts(WEBHOOK_EVENT_TYPES);

/** The Test call may take the whole attempt time-out (10 s) before the dispatcher answers. */
export const TEST_CALL_MIN_WAIT_MS = 12_000;

@ApiTags('Webhook subscriptions')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@ApiServiceUnavailableResponse({ description: 'The service did not answer in time, or is down; Retry-After: 1.' })
@Controller('WebhookSubscriptions')
export class WebhookSubscriptionsController {
  constructor(
    private readonly dispatcher: DispatcherClient,
    private readonly testCalls: TestCallLimit,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Create or update your domain's subscription (one per domain). The shared secret is never returned." })
  @ApiOkResponse({ type: SubscriptionView })
  @ApiConflictResponse({ description: 'The subscription is disabled by the operator (disabledReason `operator`): only an operator can enable it.' })
  async put(@Caller() caller: BudgetedCaller, @Body() body: SubscriptionDto): Promise<SubscriptionView> {
    // Passed on as it came, over the mutually authenticated channel: only the dispatcher holds the key that seals it.
    const request: PutSubscriptionRequest = {
      eventNames: body.eventNames,
      url: body.url,
      ...(body.sharedSecret === undefined ? {} : { sharedSecret: body.sharedSecret }),
      ...(body.signatureScheme === undefined ? {} : { signatureScheme: body.signatureScheme }),
      ...(body.maxPerSecond === undefined ? {} : { maxPerSecond: body.maxPerSecond }),
      ...(body.maxInFlight === undefined ? {} : { maxInFlight: body.maxInFlight }),
      ...(body.ordering === undefined ? {} : { ordering: body.ordering }),
    };
    return this.dispatcher.putSubscription(caller, request);
  }

  @Get()
  @ApiOperation({ summary: "Your domain's subscription." })
  @ApiOkResponse({ type: SubscriptionView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  async get(@Caller() caller: BudgetedCaller): Promise<SubscriptionView> {
    return this.dispatcher.getSubscription(caller);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: "Delete your domain's subscription (every event type). Pending deliveries then end failed." })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled by the operator (disabledReason `operator`): only an operator can enable it.' })
  async delete(@Caller() caller: BudgetedCaller): Promise<void> {
    await this.dispatcher.deleteSubscription(caller);
  }

  @Post('Enable')
  @HttpCode(200)
  @ApiOperation({ summary: "Enable your domain's subscription after it was disabled (gone or failing), and reset its run of failures." })
  @ApiOkResponse({ type: SubscriptionView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled by the operator (disabledReason `operator`): only an operator can enable it.' })
  async enable(@Caller() caller: BudgetedCaller): Promise<SubscriptionView> {
    return this.dispatcher.enableSubscription(caller);
  }

  @Post('Test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send one signed call with payloadToEcho as the exact body, no retries. 200 whatever the URL answered: check success.',
    description: `The token's claims are those of an event delivery with sub = your domain and evt = ${events.testCallEvt}; Webhook-Id is a fresh test_<uuid>, Webhook-Attempt 1; Webhook-Timestamp and Webhook-Signature (Standard Webhooks) as on every callback.`,
  })
  @ApiOkResponse({ type: TestResultView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiTooManyRequestsResponse({ description: 'The domain already has 2 Test calls in flight, or made 10 in the last minute; see Retry-After.' })
  async test(@Caller() caller: BudgetedCaller, @Body() body: TestSubscriptionDto): Promise<TestResultView> {
    return this.testCalls.run(caller.domain, () => this.dispatcher.test(atLeast(caller, TEST_CALL_MIN_WAIT_MS), body.payloadToEcho));
  }

  @Get('Deliveries')
  @ApiOperation({ summary: 'Delivery log of your domain: newest delivery first, attempts oldest first.' })
  @ApiOkResponse({ type: DeliveryPageView })
  async deliveries(@Caller() caller: BudgetedCaller, @Query() query: DeliveriesQuery): Promise<DeliveryPageView> {
    return this.dispatcher.listDeliveries(caller, deliveriesRequest(query));
  }

  @Post('Deliveries/Recover')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send every failed or skipped delivery created in [since, until) again, oldest first, each as a new series of attempts.',
    description: 'Paced per domain (WEBHOOK_RECOVERY_PER_SECOND) so live events go first; the delivery log shows the progress (recoveryId). until defaults to now; the window spans at most 31 days.',
  })
  @ApiAcceptedResponse({ type: RecoveryView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled: enable it first.' })
  async recover(@Caller() caller: BudgetedCaller, @Body() body: RecoverDeliveriesDto): Promise<RecoveryView> {
    return this.dispatcher.recover(caller, { since: body.since, until: body.until });
  }

  @Post('Deliveries/Backfill')
  @HttpCode(202)
  @ApiOperation({
    summary: `Queue a job that sends the events still on ${events.inputTopics} from since (at most 7 days back) that your domain has no delivery for.`,
    description:
      'Answers at once; follow the job with GET /WebhookSubscriptions/Deliveries/Backfill/{backfillId}. One job per domain at a time; at most WEBHOOK_BACKFILL_CONCURRENCY run at once across the platform, the others wait queued. ' +
      'Paced like a recovery (WEBHOOK_RECOVERY_PER_SECOND) so live events go first; the delivery log shows them with backfillId. Events that already have a delivery are left to recovery and redelivery.',
  })
  @ApiAcceptedResponse({ type: BackfillView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled (enable it first), or another backfill of the domain is queued or running (the problem names it).' })
  async backfill(@Caller() caller: BudgetedCaller, @Body() body: BackfillDeliveriesDto): Promise<BackfillView> {
    return this.dispatcher.backfill(caller, { since: body.since });
  }

  @Get('Deliveries/Backfill/:backfillId')
  @ApiOperation({ summary: 'One of your backfill jobs: its state and how many events it found and stored.' })
  @ApiOkResponse({ type: BackfillView })
  @ApiNotFoundResponse({ description: 'No such backfill in your domain.' })
  async getBackfill(@Caller() caller: BudgetedCaller, @Param() params: BackfillParams): Promise<BackfillView> {
    return this.dispatcher.getBackfill(caller, params.backfillId);
  }

  @Delete('Deliveries/Backfill/:backfillId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a queued or running backfill job: it stops before its next page. The deliveries it stored stay (the log shows them with backfillId).',
  })
  @ApiOkResponse({ type: BackfillView, description: 'The job, cancelled.' })
  @ApiNotFoundResponse({ description: 'No such backfill in your domain.' })
  @ApiConflictResponse({ description: 'The job has finished (done, failed or cancelled) already.' })
  async cancelBackfill(@Caller() caller: BudgetedCaller, @Param() params: BackfillParams): Promise<BackfillView> {
    return this.dispatcher.cancelBackfill(caller, params.backfillId);
  }

  @Get('SigningKeys')
  @ApiOperation({ summary: "Your domain's Ed25519 signing keys (signatureScheme ed25519), with when each signs and leaves the JWK Set." })
  @ApiOkResponse({ type: SigningKeysPageView })
  async signingKeys(@Caller() caller: BudgetedCaller): Promise<SigningKeysPageView> {
    return this.dispatcher.signingKeys(caller);
  }

  @Post('SigningKeys/Rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: "Rotate your domain's Ed25519 signing key: a new key is published now and signs after the grace period; the current one stays published for a grace period after that.",
    description: 'The grace period is WEBHOOK_SECRET_GRACE_SECONDS (default 86,400 s). While a new key waits to sign, rotating again answers 409 (revoke the current key to make the waiting one sign now). Announced on tailsync.webhook-subscriptions as SigningKeyRotated.',
  })
  @ApiOkResponse({ type: SigningKeysPageView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'The subscription signs with its shared secret (hmac-sha256), or a rotation is under way (a new key waits to sign).' })
  async rotateSigningKey(@Caller() caller: BudgetedCaller): Promise<SigningKeysPageView> {
    return this.dispatcher.rotateSigningKey(caller);
  }

  @Post('SigningKeys/:kid/Revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: "Revoke one of your domain's signing keys now: it leaves the JWK Set at once and, when it was signing, the next key signs at once (a new one is made when none waits).",
    description: 'For a key you believe leaked: no grace period, so receivers holding an older copy of the JWK Set refuse callbacks signed by the new key until they fetch the set again (the receiver packages do on an unknown kid). '
      + "Works for the keys of a deleted or HMAC subscription too, before their grace period ends. Announced on tailsync.webhook-subscriptions as SigningKeyRevoked.",
  })
  @ApiOkResponse({ type: SigningKeysPageView, description: 'The keys after the revocation.' })
  @ApiNotFoundResponse({ description: 'Your domain publishes no key of that kid (revoked or retired already, or never).' })
  async revokeSigningKey(@Caller() caller: BudgetedCaller, @Param() params: SigningKeyParams): Promise<SigningKeysPageView> {
    return this.dispatcher.revokeSigningKey(caller, params.kid);
  }

  @Post('Deliveries/:id/Redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a failed delivery again (a new round of the retry schedule).' })
  @ApiAcceptedResponse({ type: RedeliverView })
  @ApiNotFoundResponse({ description: 'No such delivery in your domain.' })
  @ApiConflictResponse({ description: 'The delivery is not failed.' })
  async redeliver(@Caller() caller: BudgetedCaller, @Param('id') id: string): Promise<RedeliverView> {
    return this.dispatcher.redeliver(caller, id);
  }

  @Get('Events')
  @ApiOperation({
    summary: "The polling door: your domain's events since your subscription, oldest first, each with the headers its callback carries.",
    description:
      'For receivers with no public URL (npm run cli -- listen, tailsync-webhooks listen). headers are made when read, with the current secret or key and webhook-id = eventId, so a receiver verifies payload with them as a callback (and dedupes on webhook-id). ' +
      'Follow iterator with after; done: true means nothing later yet. Without after: from the oldest event the delivery log keeps (WEBHOOK_LOG_RETENTION_DAYS).',
  })
  @ApiOkResponse({ type: EventPageView })
  @ApiNotFoundResponse({ description: 'No subscription.' })
  @ApiConflictResponse({ description: 'Nothing signs your callbacks now (an ed25519 subscription whose key does not sign yet).' })
  async events(@Caller() caller: BudgetedCaller, @Query() query: EventsQuery): Promise<EventPageView> {
    return this.dispatcher.listEvents(caller, { after: query.after, limit: query.limit });
  }
}
