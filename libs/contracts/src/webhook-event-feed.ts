/**
 * The polling door, `GET /WebhookSubscriptions/Events`: a domain's events as callbacks of them
 * arrive, for receivers with no public URL (contract: "Webhooks, third part").
 */

/** Most events on one page of the door. */
export const EVENT_FEED_MAX_LIMIT = 500;
export const EVENT_FEED_DEFAULT_LIMIT = 100;

export interface ListEventsRequest {
  /** The iterator of the previous page; absent: from the oldest event kept. */
  after?: string;
  limit?: number;
}

export interface PolledEventView {
  eventId: string;
  eventName: string;
  occurredAt: string;
  /** The exact callback body: the text `headers` sign (verify it as is, then parse it). */
  payload: string;
  /** The callback's headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`, `Authorization`, …). */
  headers: Record<string, string>;
}

export interface EventPageView {
  items: PolledEventView[];
  /** Pass it as `after` to read on; kept when the page is empty. */
  iterator: string;
  /** No later event could be read yet: wait before asking again. */
  done: boolean;
}
