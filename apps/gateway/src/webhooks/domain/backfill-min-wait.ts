/** A backfill reads the domain's partition of the topic again before it answers: its call may take this long. */
export const BACKFILL_MIN_WAIT_MS = 30_000;
