/** A delivery: one event for one domain's subscription, as the consumer makes it and as an attempt holds it. */

/** Where an event is on the input topic: a fifo domain's deliveries are attempted in this order. */
export interface TopicPosition {
  partition: number;
  offset: string;
}

export interface NewDelivery {
  domain: string;
  eventId: string;
  eventName: string;
  body: string;
  /** `skipped` records an event consumed while the subscription is disabled (never sent). Default `pending`. */
  status?: 'pending' | 'skipped';
  /** Absent for a delivery made without the topic (specs); it then comes after those with one. */
  position?: TopicPosition;
  /** The event message's W3C `traceparent`: its attempts belong to that trace, their callbacks carry it. */
  traceparent?: string;
}

/** A delivery leased to this copy for its next attempt. */
export interface ClaimedDelivery {
  id: string;
  domain: string;
  eventId: string;
  eventName: string;
  body: string;
  /** The event message's W3C `traceparent`, when it had one. */
  traceparent?: string;
  /** Attempts made so far (the next one is `attempts + 1`). */
  attempts: number;
  /** Attempts made before the current round (0, or the count when it was last redelivered). */
  roundStart: number;
  leaseToken: string;
  /** Carried into the row by a lease written behind its first attempt (WriteBehindLeases). */
  position?: TopicPosition;
}

/** A row's `traceparent` as a ClaimedDelivery holds it (absent when the event had none). */
export function traceparentOf(value: string | null | undefined): { traceparent?: string } {
  return value ? { traceparent: value } : {};
}
