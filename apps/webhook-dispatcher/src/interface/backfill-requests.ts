import type { BackfillDeliveriesRequest, BackfillList, BackfillRequest, BackfillView, RpcReply, RpcRequest } from '@tailsync/contracts';
import { handleRpc, ProblemError } from '@tailsync/service-kit';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { backfillSince } from '../delivery-log/domain/time-window';
import { BackfillJobs } from '../backfill/backfill-jobs.store';
import { BackfillWorker } from '../backfill/backfill.worker';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { activeSubscription, validation } from './rpc-problems';

/** How many of a domain's backfills ListBackfills shows (newest first). */
const LISTED = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const noBackfill = () => new ProblemError({ kind: 'not-found', detail: 'This domain has no such backfill.' });

/**
 * Backfill jobs of the caller's domain: queued at once (BackfillWorker runs them), looked at,
 * cancelled, listed. Queueing answers 404 without a subscription, 409 while it is disabled or
 * while another job of the domain is queued or running (the problem names it).
 */
@Injectable()
export class BackfillRequests {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly jobs: BackfillJobs,
    private readonly worker: BackfillWorker,
  ) {}

  backfill(request: RpcRequest<BackfillDeliveriesRequest>): Promise<RpcReply<BackfillView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const since = backfillSince(body?.since, new Date());
      if ('errors' in since) throw validation(since.errors);
      await activeSubscription((domain) => this.subscriptions.get(domain), caller.domain, 'backfilling');
      const outcome = await this.jobs.enqueue(randomUUID(), caller.domain, since);
      if ('active' in outcome) {
        throw new ProblemError({ kind: 'conflict', detail: `Backfill ${outcome.active} is queued or running: wait for it to finish, or cancel it.` });
      }
      this.worker.wake();
      return outcome.queued;
    });
  }

  get(request: RpcRequest<BackfillRequest>): Promise<RpcReply<BackfillView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const found = await this.jobs.find(caller.domain, backfillId(body));
      if (!found) throw noBackfill();
      return found;
    });
  }

  /** Cancels a queued or running job (it stops at its next page; the deliveries stored stay): 409 when it has finished. */
  cancel(request: RpcRequest<BackfillRequest>): Promise<RpcReply<BackfillView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const outcome = await this.jobs.cancel(caller.domain, backfillId(body));
      if (!outcome) throw noBackfill();
      if ('finished' in outcome) throw new ProblemError({ kind: 'conflict', detail: `The backfill is ${outcome.finished.state} already: there is nothing to cancel.` });
      return outcome.cancelled;
    });
  }

  list(request: RpcRequest<unknown>): Promise<RpcReply<BackfillList>> {
    return handleRpc(request, async ({ caller }) => ({ items: await this.jobs.list(caller.domain, LISTED) }));
  }
}

/** The id asked for; one that is not a UUID is a validation problem (the column is a uuid). */
function backfillId(body: BackfillRequest | undefined): string {
  const id = body?.backfillId;
  if (typeof id !== 'string' || !UUID.test(id)) throw validation({ backfillId: ['backfillId must be a UUID.'] });
  return id;
}
