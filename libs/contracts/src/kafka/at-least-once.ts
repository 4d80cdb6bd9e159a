/** What every topic's description says about redelivery: one sentence, so the documents agree. */
export const AT_LEAST_ONCE =
  'Delivery is at least once: after a crash a message may come again (same `eventId`, same key, same value); ' +
  'consumers dedupe on `eventId`.';
