import type { FastifyInstance } from 'fastify';

/** How much of an unread body the gateway reads and drops before an early answer, and for how long. */
export interface LingerLimits {
  readonly maxBytes: number;
  readonly maxMs: number;
}

/**
 * An answer sent before the request body has arrived (413 on its Content-Length, 415 on its type)
 * closes the connection. Closing a socket with unread bytes makes the kernel send a reset, and a
 * client still writing its body then sees "connection reset" instead of the 413. Like nginx's
 * lingering close, read and drop the rest of the body first, within bounds, so the client reads
 * the answer; a body beyond the bounds is cut off as before.
 */
export function lingerBeforeEarlyAnswers(http: FastifyInstance, limits: LingerLimits): void {
  // Only errors answer before the body is read, so the hook costs nothing on the way of a good request.
  http.addHook('onError', (request, _reply, _error, done) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed || !(Number(raw.headers['content-length'] ?? 0) <= limits.maxBytes)) return done();
    let seen = 0;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      raw.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
      done();
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > limits.maxBytes) finish();
    };
    const timer = setTimeout(finish, limits.maxMs);
    raw.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
    raw.resume();
  });
}
