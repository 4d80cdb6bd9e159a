import {
  DELIVERY_ORDERINGS,
  DELIVERY_STATUSES,
  SIGNATURE_SCHEMES,
  type DeleteSubscriptionResult,
  type DeliveryPage,
  type DeliveryStatus,
  type DeliveryView,
  type ListDeliveriesRequest,
  type PutSubscriptionRequest,
  type RedeliverRequest,
  type RedeliverResult,
  type RpcReply,
  type RpcRequest,
  type SubscriptionView,
  type TestSubscriptionRequest,
  type TestSubscriptionResult,
} from '@tailsync/contracts';
import { handleRpc, ProblemError } from '@tailsync/service-kit';
import { secretId } from '@tailsync/webhooks';
import { Injectable } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { SubscriptionState } from '../subscriptions/subscription-state';
import { WebhookTester } from '../attempts/webhook-tester';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { sealedKeyPair } from '../subscriptions/callback-keys';
import { type DeliveryFilter, DeliveryLog } from '../delivery-log/delivery-log.store';
import { validateWebhookUrl } from '../attempts/domain/ssrf-guard';
import { resolverAll } from '../attempts/resolver-lookup';

const RESOLVE_ALL = resolverAll();
import { parseInstant } from '../delivery-log/domain/time-window';
import { eventNamesErrors, sharedSecretErrors } from '../subscriptions/subscription-rules';
import { noSubscription, validation } from './rpc-problems';
import { previousSecretValidUntil } from '../subscriptions/subscription-secrets';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import { SecretBox } from '../sealing/secret-box';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

const view = (s: StoredSubscription): SubscriptionView => ({
  eventNames: s.eventNames,
  url: s.url,
  signatureScheme: s.signatureScheme,
  maxPerSecond: s.maxPerSecond,
  maxInFlight: s.maxInFlight,
  ordering: s.ordering,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  secretUpdatedAt: s.secretUpdatedAt.toISOString(),
  previousSecretValidUntil: previousSecretValidUntil(s)?.toISOString() ?? null,
  status: s.status,
  disabledReason: s.disabledReason,
  disabledAt: s.disabledAt?.toISOString() ?? null,
  health: {
    lastSuccessAt: s.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: s.lastFailureAt?.toISOString() ?? null,
    failedDeliveriesInARow: s.failedInARow,
  },
});

/** The gateway's webhook requests (webhook-dispatcher.grpc.ts receives them); every one is scoped to the caller's domain. */
@Injectable()
export class SubscriptionRequests {
  constructor(
    private readonly config: WebhookDispatcherConfig,
    private readonly box: SecretBox,
    private readonly subscriptions: SubscriptionStore,
    private readonly state: SubscriptionState,
    private readonly tester: WebhookTester,
    private readonly deliveryLog: DeliveryLog,
    private readonly scheduler: DeliveryScheduler,
  ) {}

  put(request: RpcRequest<PutSubscriptionRequest>): Promise<RpcReply<SubscriptionView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const fieldErrors: Record<string, string[]> = {};
      const names = eventNamesErrors(body?.eventNames);
      if (names.length) fieldErrors.eventNames = names;
      const url = typeof body?.url === 'string'
        ? await validateWebhookUrl(body.url, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_URLS, resolve: RESOLVE_ALL })
        : { ok: false as const, message: 'url must be an absolute http or https URL' };
      if (!url.ok) fieldErrors.url = [url.message];
      const scheme = body?.signatureScheme ?? 'hmac-sha256';
      if (!SIGNATURE_SCHEMES.includes(scheme)) fieldErrors.signatureScheme = [`signatureScheme must be one of ${SIGNATURE_SCHEMES.join(', ')}.`];
      for (const [name, max] of [['maxPerSecond', 1000], ['maxInFlight', 100]] as const) {
        const value = body?.[name];
        if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > max)) fieldErrors[name] = [`${name} must be an integer from 1 to ${max}.`];
      }
      const ordering = body?.ordering ?? 'none';
      if (!DELIVERY_ORDERINGS.includes(ordering)) fieldErrors.ordering = [`ordering must be one of ${DELIVERY_ORDERINGS.join(', ')}.`];
      const secret = body?.sharedSecret;
      if (secret === undefined) {
        // An ed25519 subscription signs with the domain's key: a shared secret is optional.
        if (scheme !== 'ed25519') fieldErrors.sharedSecret = ['sharedSecret is required.'];
      } else {
        const secretErrors = sharedSecretErrors(secret);
        if (secretErrors.length) fieldErrors.sharedSecret = secretErrors;
      }
      if (Object.keys(fieldErrors).length > 0) throw validation(fieldErrors);
      const input = {
        eventNames: [...new Set(body.eventNames)], url: body.url, signatureScheme: scheme,
        maxPerSecond: body.maxPerSecond ?? null, maxInFlight: body.maxInFlight ?? null, ordering,
        // Sealed here, where the key is: the gateway only passed the secret on.
        sealedSecret: secret === undefined ? null : this.box.encrypt(secret, caller.domain), secretId: secret === undefined ? null : secretId(secret),
      };
      const saved = await this.state.save(caller.domain, input, this.config.WEBHOOK_SECRET_GRACE_SECONDS, () => sealedKeyPair(this.box, caller.domain));
      return view(saved.subscription);
    });
  }

  get(request: RpcRequest<unknown>): Promise<RpcReply<SubscriptionView>> {
    return this.viewReply(request, (domain) => this.subscriptions.get(domain));
  }

  delete(request: RpcRequest<unknown>): Promise<RpcReply<DeleteSubscriptionResult>> {
    return handleRpc(request, async ({ caller }) => {
      if (!(await this.state.delete(caller.domain, this.config.WEBHOOK_SECRET_GRACE_SECONDS))) throw noSubscription();
      return { deleted: true as const };
    });
  }

  /** The tenant's Enable: refused while an operator's disable holds. */
  enable(request: RpcRequest<unknown>): Promise<RpcReply<SubscriptionView>> {
    return this.viewReply(request, (domain) => this.state.enable(domain, 'tenant'));
  }

  /** The admin API's Enable: lifts whatever disabled the subscription, an operator's disable too. */
  enableByOperator(request: RpcRequest<unknown>): Promise<RpcReply<SubscriptionView>> {
    return this.viewReply(request, (domain) => this.state.enable(domain, 'operator'));
  }

  /** The admin API's Disable: idempotent, a subscription already disabled keeps its reason. */
  disable(request: RpcRequest<unknown>): Promise<RpcReply<SubscriptionView>> {
    return this.viewReply(request, (domain) => this.state.disableByOperator(domain));
  }

  test(request: RpcRequest<TestSubscriptionRequest>): Promise<RpcReply<TestSubscriptionResult>> {
    return handleRpc(request, async ({ caller, body, deadline }) => {
      const payload = body?.payloadToEcho;
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        throw validation({ payloadToEcho: ['payloadToEcho is required and must be a JSON object.'] });
      }
      const sub = await this.subscriptions.get(caller.domain);
      if (!sub) throw noSubscription();
      // Answer before the gateway gives up on us: the call's limit is the attempt timeout, cut to the request's deadline.
      const left = deadline === undefined ? Infinity : deadline - Date.now() - 500;
      const timeoutMs = Math.max(100, Math.min(this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS, left));
      return this.tester.test(sub, payload, timeoutMs);
    });
  }

  list(request: RpcRequest<ListDeliveriesRequest>): Promise<RpcReply<DeliveryPage>> {
    return handleRpc(request, async ({ caller, body }) => {
      const fieldErrors: Record<string, string[]> = {};
      const status = body?.status;
      if (status !== undefined && !DELIVERY_STATUSES.includes(status as DeliveryStatus)) {
        fieldErrors.status = [`status must be one of ${DELIVERY_STATUSES.join(', ')}.`];
      }
      const limit = body?.limit ?? DEFAULT_PAGE;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) fieldErrors.limit = [`limit must be an integer from 1 to ${MAX_PAGE}.`];
      let before: string | undefined;
      if (body?.cursor !== undefined) {
        before = decodeCursor(body.cursor);
        if (before === undefined) fieldErrors.cursor = ['cursor is not a cursor this endpoint handed out.'];
      }
      const filter: DeliveryFilter = { status: status as DeliveryStatus | undefined };
      if (body?.eventId !== undefined) {
        if (typeof body.eventId === 'string' && UUID.test(body.eventId)) filter.eventId = body.eventId.toLowerCase();
        else fieldErrors.eventId = ['eventId must be a UUID.'];
      }
      for (const field of ['since', 'until'] as const) {
        if (body?.[field] === undefined) continue;
        filter[field] = parseInstant(body[field]);
        if (filter[field] === undefined) fieldErrors[field] = [`${field} must be an ISO-8601 date-time (e.g. 2025-06-01T00:00:00Z).`];
      }
      if (Object.keys(fieldErrors).length > 0) throw validation(fieldErrors);

      const { deliveries, attempts } = await this.deliveryLog.list(caller.domain, filter, limit + 1, before);
      const page = deliveries.slice(0, limit);
      const byDelivery = new Map<string, DeliveryView['attempts']>();
      for (const a of attempts) {
        const list = byDelivery.get(a.delivery_id) ?? [];
        list.push({ attempt: a.attempt, at: a.at.toISOString(), statusCode: a.status_code, durationMs: a.duration_ms, error: a.error, retryAfterMs: a.retry_after_ms });
        byDelivery.set(a.delivery_id, list);
      }
      return {
        items: page.map((d) => ({
          id: d.id,
          eventId: d.event_id,
          eventName: d.event_name,
          status: d.status,
          createdAt: d.created_at.toISOString(),
          recoveryId: d.recovery_id,
          backfillId: d.backfill_id,
          attempts: byDelivery.get(d.id) ?? [],
        })),
        nextCursor: deliveries.length > limit ? encodeCursor(page[page.length - 1].seq) : null,
      };
    });
  }

  redeliver(request: RpcRequest<RedeliverRequest>): Promise<RpcReply<RedeliverResult>> {
    return handleRpc(request, async ({ caller, body }) => {
      const id = body?.id;
      if (typeof id !== 'string' || !UUID.test(id)) throw new ProblemError({ kind: 'not-found', detail: 'No such delivery.' });
      const outcome = await this.deliveryLog.redeliver(caller.domain, id.toLowerCase());
      if (outcome === 'not-found') throw new ProblemError({ kind: 'not-found', detail: 'No such delivery.' });
      if (outcome === 'conflict') throw new ProblemError({ kind: 'conflict', detail: 'Only a failed delivery can be redelivered.' });
      this.scheduler.wake();
      return { id: id.toLowerCase(), status: 'pending' as const };
    });
  }

  /** The view of the subscription `act` returns for the caller's domain; not-found when it returns none. */
  private viewReply(request: RpcRequest<unknown>, act: (domain: string) => Promise<StoredSubscription | null>): Promise<RpcReply<SubscriptionView>> {
    return handleRpc(request, async ({ caller }) => {
      const sub = await act(caller.domain);
      if (!sub) throw noSubscription();
      return view(sub);
    });
  }
}

/** Opaque page cursor: the position of the last delivery on the page. */
export function encodeCursor(seq: string): string {
  return Buffer.from(`d:${seq}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: unknown): string | undefined {
  if (typeof cursor !== 'string' || cursor.length > 64) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^d:(\d{1,18})$/.exec(text);
  return match ? match[1] : undefined;
}
