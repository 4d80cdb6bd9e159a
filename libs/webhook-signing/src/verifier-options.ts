import type { TestCallPolicy } from './test-calls';
import type { WebhookSecret } from './verify';

/** Options of the Express and Fastify helpers: a fixed secret, or one looked up per request. */
export type VerifierOptions<Request> = {
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
  /** Test calls are answered 401 (`code: "test-call"`) unless this is `'accept'`. */
  testCalls?: TestCallPolicy;
} & (
  | { secret: WebhookSecret; getSecret?: never }
  | { getSecret: (req: Request) => WebhookSecret | Promise<WebhookSecret>; secret?: never }
);

/** @internal The secret source of the options, checked once when the helper is made. */
export function secretSource<Request>(options: VerifierOptions<Request>, helper: string): (req: Request) => WebhookSecret | Promise<WebhookSecret> {
  const { secret, getSecret } = options as { secret?: WebhookSecret; getSecret?: (req: Request) => WebhookSecret | Promise<WebhookSecret> };
  if (secret !== undefined) return () => secret;
  if (typeof getSecret === 'function') return getSecret;
  throw new TypeError(`${helper}: pass { secret } or { getSecret }`);
}
