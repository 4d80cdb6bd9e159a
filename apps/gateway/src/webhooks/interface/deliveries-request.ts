import type { DeliveriesQuery } from './dto/subscription.dto';

/** The dispatcher's list request for a delivery-log query (the integrator's and the operators' endpoints). */
export function deliveriesRequest(query: DeliveriesQuery) {
  return { status: query.status, limit: query.limit, cursor: query.cursor, eventId: query.eventId, since: query.since, until: query.until };
}
