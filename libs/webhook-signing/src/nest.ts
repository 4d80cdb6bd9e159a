import {
  createParamDecorator,
  Inject,
  Injectable,
  Optional,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { pickRawBody, refusalBody, WWW_AUTHENTICATE } from './raw-body';
import type { WebhookPublicKeys } from './public-keys';
import { RemoteKeySet } from './remote-key-set';
import { remoteKeysFor } from './verifier-options';
import type { TestCallPolicy } from './test-calls';
import { verifyWebhookRequest, type VerifiedWebhook, type WebhookSecret } from './verify';

/** Provider token for the shared secret used by {@link WebhookSignatureGuard}. */
export const WEBHOOK_SECRET = 'tailsync.webhook-signing.WEBHOOK_SECRET';

/** Optional provider token for {@link WebhookGuardOptions}. */
export const WEBHOOK_VERIFY_OPTIONS = 'tailsync.webhook-signing.WEBHOOK_VERIFY_OPTIONS';

/**
 * The value behind {@link WEBHOOK_SECRET}: the secret, several secrets while rotating, or a
 * function of the request returning them (e.g. looked up per tenant); for `signatureScheme:
 * "ed25519"`, the domain's public keys (`{ publicKeys }`, or a {@link RemoteKeySet} fetching them).
 */
export type WebhookSecretSource =
  | WebhookSecret
  | ((request: unknown) => WebhookSecret | Promise<WebhookSecret>)
  | RemoteKeySet
  | { publicKeys: WebhookPublicKeys };

export interface WebhookGuardOptions {
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
  /** Test calls are refused (401, `code: "test-call"`) unless this is `'accept'`. */
  testCalls?: TestCallPolicy;
}

interface GuardedRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody?: unknown;
  body?: unknown;
  webhook?: VerifiedWebhook;
}

/**
 * Verifies tailsync webhook callbacks in a NestJS app. Create the app with
 * `NestFactory.create(AppModule, { rawBody: true })` so that `req.rawBody` holds the exact bytes.
 * On success the request gets `webhook = { claims, payload }` (read it with `@WebhookEvent()`);
 * on failure the guard throws `401 { statusCode: 401, error: <reason>, step: <1..7>, code }`.
 *
 * Configure it with a `{ provide: WEBHOOK_SECRET, useValue | useFactory }` provider and
 * `@UseGuards(WebhookSignatureGuard)`, or construct it: `@UseGuards(new WebhookSignatureGuard(secret))`.
 */
@Injectable()
export class WebhookSignatureGuard implements CanActivate {
  constructor(
    @Inject(WEBHOOK_SECRET) private readonly secret: WebhookSecretSource,
    @Optional() @Inject(WEBHOOK_VERIFY_OPTIONS) private readonly options: WebhookGuardOptions = {},
  ) {
    if (secret === undefined || secret === null || secret === '') {
      throw new TypeError('WebhookSignatureGuard: provide the shared secret (WEBHOOK_SECRET provider or constructor argument)');
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<GuardedRequest>();
    const rawBody = pickRawBody(req);
    if (rawBody === undefined) {
      throw new Error('WebhookSignatureGuard needs the raw body: create the app with NestFactory.create(AppModule, { rawBody: true })');
    }
    const result = verifyWebhookRequest({
      authorizationHeader: req.headers.authorization,
      rawBody,
      ...(await this.keys(req)),
      clockToleranceSeconds: this.options?.clockToleranceSeconds,
      testCalls: this.options?.testCalls,
    });
    if (!result.ok) {
      const res = http.getResponse<{ header?: (n: string, v: string) => unknown; setHeader?: (n: string, v: string) => unknown }>();
      if (typeof res?.header === 'function') res.header('WWW-Authenticate', WWW_AUTHENTICATE);
      else if (typeof res?.setHeader === 'function') res.setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
      throw new UnauthorizedException({ statusCode: 401, ...refusalBody(result) });
    }
    req.webhook = { claims: result.claims, payload: result.payload };
    return true;
  }

  private async keys(req: GuardedRequest): Promise<{ secret: WebhookSecret } | { publicKeys: WebhookPublicKeys }> {
    const source = this.secret;
    if (source instanceof RemoteKeySet) return { publicKeys: await remoteKeysFor(source, req.headers.authorization) };
    if (typeof source === 'function') return { secret: await source(req) };
    if (typeof source === 'object' && source !== null && 'publicKeys' in source) return { publicKeys: source.publicKeys };
    return { secret: source as WebhookSecret };
  }
}

/** Parameter decorator: the `{ claims, payload }` verified by {@link WebhookSignatureGuard}. */
export const WebhookEvent = createParamDecorator(
  (_data: unknown, context: ExecutionContext): VerifiedWebhook | undefined =>
    context.switchToHttp().getRequest<GuardedRequest>().webhook,
);
