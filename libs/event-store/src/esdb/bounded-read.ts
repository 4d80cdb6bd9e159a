import { EventStoreUnavailableError } from '../event-store.port';

/** What a read needs of the client's `ReadStream`: its events, `cancel()` and `destroy()`. */
export interface CancellableRead<T> extends AsyncIterable<T> {
  cancel(): Promise<void>;
  destroy(error?: Error): unknown;
}

/**
 * Reads until `take` returns `false` or the server ends the read, within `timeoutMs`.
 *
 * 6.2.1's `ReadStream` ends its gRPC call only through `cancel()`: leaving `for await` early only
 * unpipes it, grpc-js stops reading, and the call stays open on the server, one of its 100 per
 * connection. So a read not taken to its end (stopped early, timed out, failed) is cancelled here.
 * The client reads with `deadline: Infinity`, so the time-out is ours: the read is destroyed with
 * an {@link EventStoreUnavailableError}.
 */
export async function readWithin<T>(
  read: CancellableRead<T>,
  timeoutMs: number,
  description: string,
  take: (item: T) => boolean | void,
): Promise<void> {
  let ended = false;
  const timer = setTimeout(
    () => read.destroy(new EventStoreUnavailableError(`EventStoreDB did not finish ${description} within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    for await (const item of read) {
      if (take(item) === false) return;
    }
    ended = true;
  } finally {
    clearTimeout(timer);
    if (!ended) read.cancel().catch(() => undefined);
  }
}

/** `call` within `timeoutMs`, or an {@link EventStoreUnavailableError} (the call may still complete on the server). */
export async function settleWithin<T>(call: Promise<T>, timeoutMs: number, description: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EventStoreUnavailableError(`EventStoreDB did not answer ${description} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
