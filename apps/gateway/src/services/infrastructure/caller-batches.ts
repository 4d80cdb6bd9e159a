import { BatchersByKey, inThisRequest } from '@tailsync/service-kit';
import type { BudgetedCaller } from './service-channel';
import { callerKey } from './signed-callers';

interface ForCaller<Item> {
  caller: BudgetedCaller;
  item: Item;
  /** Runs work in this request's context (its span, when tracing is on). */
  within: <T>(work: () => T) => T;
}

/** How one caller's requests share calls: at most `inFlight` calls at once, each carrying at most `maxItems`. */
export interface CallerBatching {
  inFlight: number;
  maxItems: number;
}

const DEFAULTS: CallerBatching = { inFlight: 2, maxItems: 100 };

/**
 * One caller's requests, sent together: a request alone goes at once, in a call of its own; those
 * of the same caller (role, domain, client) that arrive while two of its calls are in flight wait
 * for one to end and go together as one call. A call is a request's fixed cost (grpc-js's layers
 * and an HTTP/2 stream at both ends), so under load it is shared. Requests of different callers
 * never share a call: a call carries one signed caller, and a service answers only for it. A
 * call's deadline is its earliest request's, so no request waits past its own, and it is sent in
 * its first request's context, so its spans are in that request's trace.
 */
export class CallerBatches<Item, Result> {
  private readonly batches: BatchersByKey<ForCaller<Item>, Result>;

  /** `send` answers one result per item, in order. */
  constructor(send: (caller: BudgetedCaller, items: Item[]) => Promise<Result[]>, batching: Partial<CallerBatching> = {}) {
    const { inFlight, maxItems } = { ...DEFAULTS, ...batching };
    this.batches = new BatchersByKey(
      ({ caller }) => callerKey(caller),
      // A call goes from the first request's context, not from whichever call's end let it go.
      (requests) => requests[0].within(() => send(earliestDeadline(requests), requests.map(({ item }) => item))),
      { maxInFlight: inFlight, maxWeight: maxItems },
    );
  }

  submit(caller: BudgetedCaller, item: Item): Promise<Result> {
    return this.batches.submit({ caller, item, within: inThisRequest() });
  }
}

/** The first request's caller (its request id and trace context), with the earliest deadline of them all. */
function earliestDeadline(requests: ForCaller<unknown>[]): BudgetedCaller {
  const [first] = requests;
  if (requests.length === 1) return first.caller;
  return { ...first.caller, deadline: Math.min(...requests.map(({ caller }) => caller.deadline)) };
}
