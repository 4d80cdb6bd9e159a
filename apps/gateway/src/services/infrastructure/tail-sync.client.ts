import {
  type CreateOrMapOutcome, PROTO_FILES, type TailActivityReply, type TailCountsReply, type TailHistory, type TailListPage, type TailListQuery,
  TAIL_PROPERTY_NAMES, type TailSubmission, type TailView, type wire,
} from '@tailsync/contracts';
import { metricsRegistry, registeredMetric, traceparentToCarry } from '@tailsync/service-kit';
import { Counter } from 'prom-client';
import { type CallerBatching, CallerBatches } from './caller-batches';
import { resultOf } from './reply';
import type { BudgetedCaller, ServiceChannel } from './service-channel';
import { createOrMapOutcome, pingReply, tailActivity, tailHistory, tailPage, tailView } from './wire-views';

export const TAIL_SYNC_SERVICE = { name: 'tail-sync', service: 'TailSync', protoFile: PROTO_FILES.tailSync } as const;

const counter = (name: string, help: string): Counter => registeredMetric(name, () => new Counter({ name, help, registers: [metricsRegistry] }));
/** Reads per call is how far the hop's cost is shared: the first over the second. */
const readsSent = () => counter('tailsync_gateway_tail_reads_total', 'Single-tail reads (GET /Tails/{mappedId}) the gateway sent to tail-sync');
const readCalls = () => counter('tailsync_gateway_tail_read_calls_total', 'Calls to tail-sync that carried those reads (GetTail alone, GetTails for several)');

/**
 * tail-sync's requests as the gateway makes them: views in, problems thrown as HTTP problems.
 * One caller's reads of one tail, and creates of one tail, that arrive together share a call (CallerBatches).
 */
export class TailSyncClient {
  private readonly reads: CallerBatches<string, wire.TailReply__Output>;
  private readonly creates: CallerBatches<TailSubmission, CreateOrMapOutcome>;
  private readonly readsSent = readsSent();
  private readonly readCalls = readCalls();

  constructor(
    private readonly channel: ServiceChannel<wire.TailSyncDefinition>,
    batching: Partial<CallerBatching> = {},
  ) {
    this.reads = new CallerBatches((caller, mappedIds) => this.getTails(caller, mappedIds), batching);
    this.creates = new CallerBatches((caller, tails) => this.createOrMap(caller, tails.length === 1 ? [untraced(tails[0])] : tails), batching);
  }

  /**
   * One tail created or mapped (`PUT /Tails`): those of one caller that arrive together go as one
   * `CreateOrMap`, applied in the order they arrived, each answered its own outcome. A call carries
   * one request's metadata, so in a shared call each tail carries its own request's trace context.
   */
  createOrMapOne(caller: BudgetedCaller, tail: TailSubmission): Promise<CreateOrMapOutcome> {
    const traceparent = traceparentToCarry(caller);
    return this.creates.submit(caller, traceparent === undefined ? tail : { ...tail, traceparent });
  }

  async createOrMap(caller: BudgetedCaller, tails: TailSubmission[]): Promise<CreateOrMapOutcome[]> {
    const reply = await this.channel.call('CreateOrMap', caller, { tails: tails.map(submissionToWire) });
    return resultOf(reply, 'outcomes').outcomes.map(createOrMapOutcome);
  }

  async deactivate(caller: BudgetedCaller, mappedId: string): Promise<TailView> {
    return tailView(resultOf(await this.channel.call('Deactivate', caller, { mappedId }), 'tail'));
  }

  async reactivate(caller: BudgetedCaller, mappedId: string): Promise<TailView> {
    return tailView(resultOf(await this.channel.call('Reactivate', caller, { mappedId }), 'tail'));
  }

  async changeTailNumber(caller: BudgetedCaller, mappedId: string, newTailNumber: string): Promise<TailView> {
    return tailView(resultOf(await this.channel.call('ChangeTailNumber', caller, { mappedId, newTailNumber }), 'tail'));
  }

  async get(caller: BudgetedCaller, mappedId: string): Promise<TailView> {
    return tailView(resultOf(await this.reads.submit(caller, mappedId), 'tail'));
  }

  async list(caller: BudgetedCaller, query: TailListQuery): Promise<TailListPage> {
    const { status, tailNumber, limit, cursor } = query;
    return tailPage(resultOf(await this.channel.call('ListTails', caller, { status, tailNumber, limit, cursor }), 'page'));
  }

  async history(caller: BudgetedCaller, mappedId: string): Promise<TailHistory> {
    return tailHistory(resultOf(await this.channel.call('GetTailHistory', caller, { mappedId }), 'history'));
  }

  async countByDomain(caller: BudgetedCaller, domains: string[]): Promise<TailCountsReply> {
    return { counts: (await this.channel.call('CountTails', caller, { domains })).counts };
  }

  async activity(caller: BudgetedCaller, since: string): Promise<TailActivityReply> {
    return tailActivity(await this.channel.call('ReadActivity', caller, { since }));
  }

  async ping(caller: BudgetedCaller) {
    return pingReply(await this.channel.call('Ping', caller, {}));
  }

  close(): void {
    this.channel.close();
  }

  /** A read alone as `GetTail`, several as one `GetTails`: one reply each, in order. */
  private async getTails(caller: BudgetedCaller, mappedIds: string[]): Promise<wire.TailReply__Output[]> {
    this.readsSent.inc(mappedIds.length);
    this.readCalls.inc();
    if (mappedIds.length === 1) return [await this.channel.call('GetTail', caller, { mappedId: mappedIds[0] })];
    return resultOf(await this.channel.call('GetTails', caller, { tails: mappedIds.map((mappedId) => ({ mappedId })) }), 'replies').replies;
  }
}

/** A call of one request's tail: the call's own `traceparent` metadata says its trace. */
function untraced({ traceparent: _, ...tail }: TailSubmission): TailSubmission {
  return tail;
}

/** An absent property of a submission is null in the gateway's DTO and left out on the wire. */
function submissionToWire(tail: TailSubmission): wire.TailSubmission {
  const onWire: Record<string, unknown> = { mappedId: tail.mappedId, tailNumber: tail.tailNumber, traceparent: tail.traceparent };
  for (const name of TAIL_PROPERTY_NAMES) onWire[name] = tail[name] ?? undefined;
  return onWire as unknown as wire.TailSubmission;
}
