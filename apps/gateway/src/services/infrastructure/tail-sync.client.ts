import {
  type CreateOrMapOutcome, PROTO_FILES, type TailActivityReply, type TailCountsReply, type TailHistory, type TailListPage, type TailListQuery,
  TAIL_PROPERTY_NAMES, type TailSubmission, type TailView, type wire,
} from '@tailsync/contracts';
import { BatchedTailReads, type ReadBatching } from './batched-tail-reads';
import { resultOf } from './reply';
import type { BudgetedCaller, ServiceChannel } from './service-channel';
import { createOrMapOutcome, pingReply, tailActivity, tailHistory, tailPage, tailView } from './wire-views';

export const TAIL_SYNC_SERVICE = { name: 'tail-sync', service: 'TailSync', protoFile: PROTO_FILES.tailSync } as const;

/** tail-sync's requests as the gateway makes them: views in, problems thrown as HTTP problems. */
export class TailSyncClient {
  private readonly reads: BatchedTailReads;

  constructor(
    private readonly channel: ServiceChannel<wire.TailSyncDefinition>,
    batching: Partial<ReadBatching> = {},
  ) {
    this.reads = new BatchedTailReads(channel, batching);
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
    return tailView(resultOf(await this.reads.read(caller, mappedId), 'tail'));
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
}

/** An absent property of a submission is null in the gateway's DTO and left out on the wire. */
function submissionToWire(tail: TailSubmission): wire.TailSubmission {
  const onWire: Record<string, unknown> = { mappedId: tail.mappedId, tailNumber: tail.tailNumber };
  for (const name of TAIL_PROPERTY_NAMES) onWire[name] = tail[name] ?? undefined;
  return onWire as unknown as wire.TailSubmission;
}
