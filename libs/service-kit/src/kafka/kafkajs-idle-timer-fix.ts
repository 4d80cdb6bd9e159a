/**
 * kafkajs 2.2.4 (the last release; the project is unmaintained) re-arms a timer on every broker
 * connection after every response, even with no request waiting: `scheduleCheckPendingRequests`
 * computes `throttledUntil - now`, which is negative when not throttled, so the timer fires after
 * 1 ms, finds nothing pending and arms itself again. Each connection wakes its process about a
 * thousand times a second for as long as it lives: at rest every tailsync process spent 5-7 % of a
 * core on it (docs/performance.md).
 *
 * The check exists for requests that wait in the queue (client-side throttling, too many in
 * flight). With none waiting there is nothing to check: a request queued later arms the timer
 * itself (`push`), and every response runs the check again. So the timer is only armed while
 * something is pending.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as {
  prototype: { pending: unknown[]; scheduleCheckPendingRequests(): void; __tailsyncIdleFix?: true };
};

const proto = RequestQueue.prototype;
if (!proto.__tailsyncIdleFix) {
  const original = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: typeof proto) {
    if (this.pending.length === 0) return;
    original.call(this);
  };
  proto.__tailsyncIdleFix = true;
}

/** true once the fix is installed (importing this module installs it). */
export const kafkajsIdleTimerFixed = proto.__tailsyncIdleFix === true;
