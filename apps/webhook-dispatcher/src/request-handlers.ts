import type { DispatcherRuntime } from './dispatcher.runtime';
import { BackfillRequests } from './interface/backfill-requests';
import { RecoveryRequests } from './interface/recovery-requests';
import { SigningKeyRequests } from './interface/signing-key-requests';
import { SubscriptionRequests } from './interface/subscription-requests';

/** The handlers of the gateway's webhook calls (webhook-dispatcher.grpc.ts routes to them). */
export interface RequestHandlers {
  subscriptions: SubscriptionRequests;
  recovery: RecoveryRequests;
  backfill: BackfillRequests;
  signingKeys: SigningKeyRequests;
}

/**
 * Each handler given the parts of a runtime it uses, and nothing else: the one place they are
 * wired, for the app's module and for the specs alike.
 */
export function requestHandlersOf(runtime: DispatcherRuntime): RequestHandlers {
  const { config, box, subscriptions, state, tester, newDeliveries, deliveryLog, scheduler, rereader, events } = runtime;
  return {
    subscriptions: new SubscriptionRequests(config, box, subscriptions, state, tester, deliveryLog, scheduler),
    recovery: new RecoveryRequests(config, subscriptions, deliveryLog, scheduler),
    backfill: new BackfillRequests(config, subscriptions, rereader, newDeliveries, scheduler),
    signingKeys: new SigningKeyRequests(config, box, subscriptions, events),
  };
}
