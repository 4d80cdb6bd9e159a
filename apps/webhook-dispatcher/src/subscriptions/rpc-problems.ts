import { ProblemError } from '@tailsync/service-kit';

/** Problems the webhook RPC handlers answer with. */
export const validation = (fieldErrors: Record<string, string[]>): ProblemError =>
  new ProblemError({ kind: 'validation', fieldErrors, detail: Object.values(fieldErrors).flat()[0] });

export const noSubscription = () => new ProblemError({ kind: 'not-found', detail: 'This domain has no webhook subscription.' });
