/**
 * What a receiver does with a Test call (`POST /WebhookSubscriptions/Test`): by default it is
 * refused, so a test payload never reaches code written for events; `'accept'` lets it through.
 */
export type TestCallPolicy = 'refuse' | 'accept';

/** @internal Whether a genuine Test call is refused under `policy`. */
export function refusedTestCall(policy: TestCallPolicy | undefined): boolean {
  if (policy !== undefined && policy !== 'refuse' && policy !== 'accept') {
    throw new TypeError(`testCalls must be 'refuse' or 'accept', not ${JSON.stringify(policy)}`);
  }
  return policy !== 'accept';
}
