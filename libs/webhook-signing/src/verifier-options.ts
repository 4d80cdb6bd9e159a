import type { WebhookPublicKeys } from './public-keys';
import { RemoteKeySet, tokenKeyId } from './remote-key-set';
import type { TestCallPolicy } from './test-calls';
import type { WebhookSecret } from './verify';

/**
 * Options of the Express and Fastify helpers: a fixed secret, one looked up per request, or (for
 * `signatureScheme: "ed25519"`) the domain's public keys, fixed or a {@link RemoteKeySet}.
 */
export type VerifierOptions<Request> = {
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
  /** Test calls are answered 401 (`code: "test-call"`) unless this is `'accept'`. */
  testCalls?: TestCallPolicy;
} & (
  | { secret: WebhookSecret; getSecret?: never; publicKeys?: never }
  | { getSecret: (req: Request) => WebhookSecret | Promise<WebhookSecret>; secret?: never; publicKeys?: never }
  | { publicKeys: WebhookPublicKeys | RemoteKeySet; secret?: never; getSecret?: never }
);

/** @internal What one request is verified with. */
export type RequestKeys = { secret: WebhookSecret } | { publicKeys: WebhookPublicKeys };

/** @internal The key source of the options, checked once when the helper is made. */
export function keySource<Request>(options: VerifierOptions<Request>, helper: string): (req: Request, authorization: string | readonly string[] | undefined) => Promise<RequestKeys> {
  const { secret, getSecret, publicKeys } = options as { secret?: WebhookSecret; getSecret?: (req: Request) => WebhookSecret | Promise<WebhookSecret>; publicKeys?: WebhookPublicKeys | RemoteKeySet };
  if (secret !== undefined) return async () => ({ secret });
  if (typeof getSecret === 'function') return async (req) => ({ secret: await getSecret(req) });
  if (publicKeys instanceof RemoteKeySet) return async (_req, authorization) => ({ publicKeys: await remoteKeysFor(publicKeys, authorization) });
  if (publicKeys !== undefined) return async () => ({ publicKeys });
  throw new TypeError(`${helper}: pass { secret }, { getSecret } or { publicKeys }`);
}

/**
 * @internal The keys a callback's token needs from the remote set: none (so nothing is fetched) when
 * the request carries no token naming a key, as every callback's does: a probe or a forgery gets its
 * 401 without a request to the service.
 */
export async function remoteKeysFor(keys: RemoteKeySet, authorization: string | readonly string[] | undefined): Promise<WebhookPublicKeys> {
  const kid = tokenKeyId(authorization);
  return kid === undefined ? [] : keys.keys(kid);
}
