import type { wire } from '@tailsync/contracts';
import { BatchersByKey, metricsRegistry } from '@tailsync/service-kit';
import { Counter } from 'prom-client';
import { resultOf } from './reply';
import type { BudgetedCaller, ServiceChannel } from './service-channel';
import { callerKey } from './signed-callers';

interface TailRead {
  caller: BudgetedCaller;
  mappedId: string;
}

/** How reads of one caller share calls: at most `inFlight` calls at once, each carrying at most `maxReads` reads. */
export interface ReadBatching {
  inFlight: number;
  maxReads: number;
}

const DEFAULTS: ReadBatching = { inFlight: 2, maxReads: 100 };

const counter = (name: string, help: string): Counter => (metricsRegistry.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help, registers: [metricsRegistry] });
/** Reads per call is how far the hop's cost is shared: the first over the second. */
const readsSent = () => counter('tailsync_gateway_tail_reads_total', 'Single-tail reads (GET /Tails/{mappedId}) the gateway sent to tail-sync');
const readCalls = () => counter('tailsync_gateway_tail_read_calls_total', 'Calls to tail-sync that carried those reads (GetTail alone, GetTails for several)');

/**
 * `GetTail` calls, batched per caller: a read alone goes at once as its own `GetTail`; reads of the
 * same caller (role, domain, client) that arrive while its calls are in flight wait for one to end
 * and go together as one `GetTails`, answered per read (its own 404) by tail-sync's one statement.
 * A call is the fixed cost of a read (grpc-js's layers and an HTTP/2 stream on both sides), so
 * under load it is shared. Reads of different callers never share a call: each call carries one
 * signed caller, and a service answers only for it. A batch's deadline is its earliest read's,
 * so no read waits past its own.
 */
export class BatchedTailReads {
  private readonly batches: BatchersByKey<TailRead, wire.TailReply__Output>;
  private readonly reads = readsSent();
  private readonly calls = readCalls();

  constructor(
    private readonly channel: ServiceChannel<wire.TailSyncDefinition>,
    batching: Partial<ReadBatching> = {},
  ) {
    const { inFlight, maxReads } = { ...DEFAULTS, ...batching };
    this.batches = new BatchersByKey(({ caller }) => callerKey(caller), (reads) => this.send(reads), { maxInFlight: inFlight, maxWeight: maxReads });
  }

  read(caller: BudgetedCaller, mappedId: string): Promise<wire.TailReply__Output> {
    return this.batches.submit({ caller, mappedId });
  }

  private async send(reads: TailRead[]): Promise<wire.TailReply__Output[]> {
    const [first] = reads;
    this.reads.inc(reads.length);
    this.calls.inc();
    if (reads.length === 1) return [await this.channel.call('GetTail', first.caller, { mappedId: first.mappedId })];
    const caller = { ...first.caller, deadline: Math.min(...reads.map((read) => read.caller.deadline)) };
    const reply = await this.channel.call('GetTails', caller, { tails: reads.map(({ mappedId }) => ({ mappedId })) });
    return resultOf(reply, 'replies').replies;
  }
}
