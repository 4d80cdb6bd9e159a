import { Logger } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import { JwtService } from '@nestjs/jwt';
import { type LogCorrelation } from '@tailsync/service-kit';
import { CallbackKeys, NoSigningKey } from '../subscriptions/callback-keys';
import { signCallback, type CallbackSigningKeys } from '../signing/callback-signer';
import type { SubscriptionState } from '../subscriptions/subscription-state';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { AttemptRecorder } from './attempt.recorder';
import type { AttemptSender } from './attempt.sender';
import { inAttemptSpan } from './attempt-span';
import type { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { ClaimedDelivery } from '../delivery-log/delivery';
import type { AttemptRecord } from './attempt-records.store';
import { delayHonouringRetryAfter, parseRetryAfter, RETRY_AFTER_STATUSES } from './domain/retry-after';
import { classifyAttempt, GONE_STATUS, nextAttemptDelay } from './domain/retry-policy';
import { SecretBoxError } from '../sealing/secret-box';

export interface AttemptRunnerOptions {
  retryDelaysMs: readonly number[];
  /** The longest a receiver's Retry-After may push the next attempt. */
  retryAfterMaxMs: number;
  attemptTimeoutMs: number;
}

/** What the receiver answered an attempt (null: no answer, or nothing was sent), for the scheduler's flow control. */
export interface AttemptAnswer {
  statusCode: number | null;
  /** A valid Retry-After came with a 429 or 503. */
  retryAfterGiven: boolean;
  /** Resolves once the attempt's outcome is stored (a fifo domain's next event may go then). */
  recorded: Promise<void>;
}

/**
 * One attempt of a leased delivery against its subscription as it is now: signed, sent, classified
 * (delivered, retry on the schedule honouring Retry-After, or failed), and handed to the recorder.
 * A 410 Gone disables the subscription.
 */
export class AttemptRunner {
  private readonly logger = new Logger('AttemptRunner');
  private readonly jwt = new JwtService();

  constructor(
    private readonly keys: CallbackKeys,
    private readonly sender: AttemptSender,
    private readonly recorder: AttemptRecorder,
    private readonly metrics: DeliveryMetrics,
    private readonly state: SubscriptionState,
    private readonly options: AttemptRunnerOptions,
  ) {}

  run(delivery: ClaimedDelivery, subscription: StoredSubscription | undefined): Promise<AttemptAnswer> {
    const attempt = delivery.attempts + 1;
    return inAttemptSpan(delivery, attempt, (span, log) => this.attempt(delivery, subscription, attempt, span, log));
  }

  private async attempt(delivery: ClaimedDelivery, subscription: StoredSubscription | undefined, attempt: number, span: Span, log: LogCorrelation): Promise<AttemptAnswer> {
    const at = new Date();
    // A fifo domain's next event waits for this outcome: record it without lingering.
    const record = (entry: AttemptRecord, outcome: string) =>
      subscription?.ordering === 'fifo' ? this.recorder.recordPromptly(entry, outcome) : this.recorder.record(entry, outcome);
    const end = (error: string): AttemptAnswer => {
      const recorded = record(
        { id: delivery.id, leaseToken: delivery.leaseToken, attempt, at, statusCode: null, durationMs: 0, error, retryAfterMs: null, next: { status: 'failed' } },
        'failed',
      );
      return { statusCode: null, retryAfterGiven: false, recorded };
    };

    if (!subscription) return end('no subscription: it was deleted before this attempt; nothing was sent');
    if (subscription.status === 'disabled') return end(`the subscription is disabled (${subscription.disabledReason}); nothing was sent`);
    if (!subscription.eventNames.includes(delivery.eventName)) {
      return end(`the subscription no longer lists ${delivery.eventName}; nothing was sent`);
    }
    let keys: CallbackSigningKeys;
    try {
      keys = this.keys.forSubscription(subscription);
    } catch (error) {
      if (error instanceof NoSigningKey) return end(`${error.message}; nothing was sent`);
      if (!(error instanceof SecretBoxError)) throw error;
      return end('the stored shared secret or signing key cannot be decrypted (was WEBHOOK_SECRET_KEY changed?); nothing was sent');
    }
    const headers = signCallback(
      { body: delivery.body, keys, domain: delivery.domain, eventName: delivery.eventName, kind: 'event', webhookId: delivery.eventId, attempt },
      this.jwt,
    );
    // Passed on as the event carried it; while tracing is on, the HTTP span's own replaces it.
    if (delivery.traceparent !== undefined) headers.traceparent = delivery.traceparent;
    const result = await this.sender.send({
      url: subscription.url,
      body: delivery.body,
      headers,
      timeoutMs: this.options.attemptTimeoutMs,
    });
    const verdict = classifyAttempt({ statusCode: result.statusCode, error: result.errorCode });
    span.setAttribute('tailsync.delivery.outcome', verdict);
    if (result.statusCode !== undefined) span.setAttribute('http.response.status_code', result.statusCode);
    this.metrics.attemptDuration.observe({ result: verdict }, result.durationMs / 1000);
    this.metrics.callbackDuration.observe(
      { http_request_method: 'POST', http_response_status_code: result.statusCode === undefined ? '' : String(result.statusCode), error_type: result.errorCode ?? '' },
      result.durationMs / 1000,
    );
    const asked = result.statusCode !== undefined && RETRY_AFTER_STATUSES.has(result.statusCode) ? parseRetryAfter(result.retryAfter, Date.now()) : null;
    const retryAfterMs = asked === null ? null : Math.min(asked, this.options.retryAfterMaxMs);
    let next: AttemptRecord['next'];
    let outcome: string;
    if (verdict === 'delivered') {
      next = { status: 'delivered' };
      outcome = 'delivered';
    } else if (verdict === 'give-up') {
      next = { status: 'failed' };
      outcome = 'failed';
    } else {
      const scheduled = nextAttemptDelay(attempt - delivery.roundStart, this.options.retryDelaysMs);
      const delay = scheduled === null ? null : delayHonouringRetryAfter(scheduled, retryAfterMs, this.options.retryAfterMaxMs);
      next = delay === null ? { status: 'failed' } : { status: 'pending', at: new Date(Date.now() + delay) };
      outcome = delay === null ? 'failed' : 'retry-scheduled';
    }
    const error = result.error ?? (verdict === 'delivered' ? null : `HTTP ${result.statusCode}`);
    this.logger.debug({ msg: 'attempt made', deliveryId: delivery.id, attempt, outcome, statusCode: result.statusCode, durationMs: result.durationMs, ...log });
    const recorded = record(
      { id: delivery.id, leaseToken: delivery.leaseToken, attempt, at, statusCode: result.statusCode ?? null, durationMs: result.durationMs, error, retryAfterMs, next },
      outcome,
    );
    if (result.statusCode === GONE_STATUS) {
      this.state.disable(delivery.domain, 'gone').catch((e) => this.logger.warn({ msg: 'disabling a gone subscription failed', error: (e as Error).message, ...log }));
    }
    return { statusCode: result.statusCode ?? null, retryAfterGiven: asked !== null, recorded };
  }
}
