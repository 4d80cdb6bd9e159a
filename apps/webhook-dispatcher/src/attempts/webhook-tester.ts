import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { TestSubscriptionResult } from '@tailsync/contracts';
import { CallbackKeys } from '../subscriptions/callback-keys';
import { signCallback } from '../signing/callback-signer';
import { TEST_WEBHOOK_ID_PREFIX } from '@tailsync/webhooks';
import { randomUUID } from 'node:crypto';
import { AttemptSender } from './attempt.sender';
import type { StoredSubscription } from '../subscriptions/subscription.store';

export const SNIPPET_BYTES = 1024;

/**
 * The Test call: one signed request to the subscription url with the caller's payload as the exact
 * body, no retries. Token claims as for events, with `sub` = the domain, `evt` = the first event
 * name the subscription lists and `test: true`; `Webhook-Id` is
 * `test_<uuid>` (fresh, so it never collides with an event id a receiver dedupes on) and
 * `Webhook-Attempt` is 1. Receivers refuse it unless told to accept test calls.
 */
@Injectable()
export class WebhookTester {
  private readonly jwt = new JwtService();

  constructor(
    private readonly keys: CallbackKeys,
    private readonly sender: AttemptSender,
  ) {}

  async test(subscription: StoredSubscription, payloadToEcho: object, timeoutMs: number): Promise<TestSubscriptionResult> {
    const body = JSON.stringify(payloadToEcho);
    const headers = signCallback(
      { body, keys: this.keys.forSubscription(subscription), domain: subscription.domain, eventName: subscription.eventNames[0], kind: 'test', webhookId: `${TEST_WEBHOOK_ID_PREFIX}${randomUUID()}`, attempt: 1 },
      this.jwt,
    );
    const result = await this.sender.send({
      url: subscription.url,
      body,
      headers,
      timeoutMs,
      snippetBytes: SNIPPET_BYTES,
    });
    const success = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode <= 299;
    return {
      success,
      diagnostics: {
        url: subscription.url,
        statusCode: result.statusCode ?? null,
        durationMs: result.durationMs,
        error: result.error ?? (success ? null : `HTTP ${result.statusCode}`),
        responseBodySnippet: result.responseBodySnippet ?? null,
      },
    };
  }
}
