/** The operators' overview: what each service did in the last hour, per minute and domain. */

/** The first minute of the window (ISO-8601, whole minute); the window runs to now. */
export interface ActivityRequest {
  since: string;
}

/** One count of one domain in one minute (`minute`: ISO-8601 start of the minute). */
export interface MinuteCount {
  minute: string;
  domain: string;
  count: number;
}

/** How far a reader of the event log is behind its head. */
export interface ReaderLag {
  name: string;
  /** Events not yet read, counted up to `capped`. */
  events: number;
  capped: boolean;
  /** Age of the oldest event not yet read; 0 when caught up. */
  seconds: number;
}

export interface TailActivityReply {
  /** Tails created or changed, each counted once, in the minute of its latest change (the read model keeps no older ones). */
  tailsWritten: MinuteCount[];
  /** The read model's projection and the relay to Kafka. */
  lags: ReaderLag[];
}

export interface AttentionSubscription {
  domain: string;
  url: string;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  failedDeliveriesInARow: number;
  lastFailureAt: string | null;
}

export interface DeliveryActivityReply {
  // generated from the event-type registry by `npm run generate:webhook-events`: events-consumed
  /** Risk-assessment events consumed for a subscribed domain: each makes a delivery. */
  // end of events-consumed
  eventsConsumed: MinuteCount[];
  /** Deliveries that reached delivered, failed or skipped, per minute of that change. */
  delivered: MinuteCount[];
  failed: MinuteCount[];
  skipped: MinuteCount[];
  // generated from the event-type registry by `npm run generate:webhook-events`: consumer-lag
  /** Messages of the risk-assessment topic the dispatcher's consumer group has not committed; null if unknown. */
  // end of consumer-lag
  consumerLag: number | null;
  /** Subscriptions disabled, or with failed deliveries in a row. */
  attention: AttentionSubscription[];
}
