import { ProblemError } from '@tailsync/service-kit';

/** Problems the webhook RPC handlers answer with. */
export const validation = (fieldErrors: Record<string, string[]>): ProblemError =>
  new ProblemError({ kind: 'validation', fieldErrors, detail: Object.values(fieldErrors).flat()[0] });

export const noSubscription = () => new ProblemError({ kind: 'not-found', detail: 'This domain has no webhook subscription.' });

/** The domain's subscription when it is active: 404 without one, 409 while disabled (what `doing` sends would only be skipped). */
export async function activeSubscription<S extends { status: string }>(get: (domain: string) => Promise<S | null>, domain: string, doing: string): Promise<S> {
  const sub = await get(domain);
  if (!sub) throw noSubscription();
  if (sub.status === 'disabled') {
    throw new ProblemError({ kind: 'conflict', detail: `The subscription is disabled: enable it (POST /WebhookSubscriptions/Enable) before ${doing}.` });
  }
  return sub;
}
