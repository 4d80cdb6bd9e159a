import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { EVENT_FEED_DEFAULT_LIMIT, EVENT_FEED_MAX_LIMIT, type EventPageView, type ListEventsRequest, type RpcReply, type RpcRequest } from '@tailsync/contracts';
import { handleRpc, ProblemError } from '@tailsync/service-kit';
import { signCallback, type CallbackSigningKeys } from '../signing/callback-signer';
import { CallbackKeys, NoSigningKey } from '../subscriptions/callback-keys';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { EventFeed, type FeedEvent } from '../delivery-log/event-feed.store';
import { decodeFeedIterator, encodeFeedIterator, FEED_START, type FeedPosition } from '../delivery-log/domain/feed-iterator';
import { noSubscription, validation } from './rpc-problems';

/**
 * The polling door, `GET /WebhookSubscriptions/Events`: the domain's events since its subscription,
 * oldest first, each with the headers a callback of it would carry if sent now. The log keeps each
 * event's exact body but not the headers of its attempts (a timestamp minutes old would fail a
 * receiver's replay check anyway), so they are made when read, with the subscription's current
 * secret or key, `webhook-id` = the event id and `webhook-attempt` 1: what a receiver verifies.
 */
@Injectable()
export class EventFeedRequests {
  private readonly jwt = new JwtService();

  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly keys: CallbackKeys,
    private readonly feed: EventFeed,
  ) {}

  list(request: RpcRequest<ListEventsRequest>): Promise<RpcReply<EventPageView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const fieldErrors: Record<string, string[]> = {};
      const limit = body?.limit ?? EVENT_FEED_DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_FEED_MAX_LIMIT) fieldErrors.limit = [`limit must be an integer from 1 to ${EVENT_FEED_MAX_LIMIT}.`];
      let after: FeedPosition = FEED_START;
      if (body?.after !== undefined) {
        const decoded = decodeFeedIterator(body.after);
        if (decoded === undefined) fieldErrors.after = ['after is not an iterator this endpoint handed out.'];
        else after = decoded;
      }
      if (Object.keys(fieldErrors).length > 0) throw validation(fieldErrors);

      const subscription = await this.subscriptions.get(caller.domain);
      if (!subscription) throw noSubscription();
      let keys: CallbackSigningKeys;
      try {
        keys = this.keys.forSubscription(subscription);
      } catch (error) {
        if (!(error instanceof NoSigningKey)) throw error;
        throw new ProblemError({ kind: 'conflict', detail: `Nothing signs this domain's callbacks now (${error.message}).` });
      }
      const events = await this.feed.read(caller.domain, after, subscription.createdAt, limit);
      const now = new Date();
      // Names in lowercase, as Node and HTTP/2 receivers see them: `headers['webhook-id']` in JSON.
      const sign = (event: FeedEvent) => Object.fromEntries(Object.entries(
        signCallback({ body: event.body, keys, domain: caller.domain, eventName: event.eventName, kind: 'event', webhookId: event.eventId, attempt: 1, now }, this.jwt),
      ).map(([name, value]) => [name.toLowerCase(), value]));
      return {
        items: events.map((event) => ({ eventId: event.eventId, eventName: event.eventName, occurredAt: occurredAtOf(event.body), payload: event.body, headers: sign(event) })),
        iterator: encodeFeedIterator(events.at(-1)?.position ?? after),
        done: events.length < limit,
      };
    });
  }
}

/** The event's `occurredAt`, read from the callback body the dispatcher wrote. */
function occurredAtOf(body: string): string {
  const parsed = JSON.parse(body) as { occurredAt?: unknown };
  return typeof parsed.occurredAt === 'string' ? parsed.occurredAt : '';
}
