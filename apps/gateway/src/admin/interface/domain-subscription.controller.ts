import { Body, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiNotFoundResponse, ApiOkResponse, ApiOperation,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { atLeast } from '../../services/infrastructure/request-budget';
import { TestSubscriptionDto } from '../../webhooks/interface/dto/subscription.dto';
import { TestCallLimit } from '../../webhooks/infrastructure/test-call-limit';
import { SubscriptionView, TestResultView } from '../../webhooks/interface/dto/subscription-views';
import { TEST_CALL_MIN_WAIT_MS } from '../../webhooks/interface/webhook-subscriptions.controller';
import { adminCaller } from './admin-caller';
import { AdminDispatcherController } from './admin-dispatcher-controller';
import { DomainParams } from './domain-params';

/** A domain's subscription with its health, disabling and enabling it, and a test call with its diagnostics. */
@ApiNotFoundResponse({ description: 'The domain has no subscription.' })
@AdminDispatcherController('admin/Domains/:domain/Subscription')
export class DomainSubscriptionController {
  constructor(
    private readonly dispatcher: DispatcherClient,
    private readonly testCalls: TestCallLimit,
  ) {}

  @Get()
  @ApiOperation({ summary: "A domain's subscription with its health, as GET /WebhookSubscriptions shows it to the domain." })
  @ApiOkResponse({ type: SubscriptionView })
  async get(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<SubscriptionView> {
    return this.dispatcher.getSubscription(adminCaller(params.domain, req));
  }

  @Post('Enable')
  @HttpCode(200)
  @ApiOperation({
    summary: "Enable a domain's disabled subscription and reset its run of failures.",
    description: 'The only way to lift an operator\'s Disable: until then the domain\'s own Enable, saves and DELETE answer 409.',
  })
  @ApiOkResponse({ type: SubscriptionView })
  async enable(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<SubscriptionView> {
    return this.dispatcher.enableSubscriptionByOperator(adminCaller(params.domain, req));
  }

  @Post('Disable')
  @HttpCode(200)
  @ApiOperation({
    summary: "Disable a domain's subscription (disabledReason `operator`): callbacks stop and consumed events are recorded as skipped until an operator enables it.",
    description: 'Holds against the domain: its Enable, saves and DELETE answer 409 ("disabled by the operator") until POST …/Subscription/Enable here. '
      + 'Idempotent: a subscription already disabled answers 200 and keeps its reason and disabledAt. Announced on tailsync.webhook-subscriptions as SubscriptionDisabledByOperator.',
  })
  @ApiOkResponse({ type: SubscriptionView })
  async disable(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<SubscriptionView> {
    return this.dispatcher.disableSubscription(adminCaller(params.domain, req));
  }

  @Post('Test')
  @HttpCode(200)
  @ApiOperation({ summary: "One signed test call to the domain's URL, no retries; 200 whatever the URL answered: read success and diagnostics." })
  @ApiOkResponse({ type: TestResultView })
  async test(@Param() params: DomainParams, @Body() body: TestSubscriptionDto, @Req() req: FastifyRequest): Promise<TestResultView> {
    return this.testCalls.run(params.domain, () => this.dispatcher.test(atLeast(adminCaller(params.domain, req), TEST_CALL_MIN_WAIT_MS), body.payloadToEcho));
  }
}
