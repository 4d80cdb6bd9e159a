import type { WebhookJwks } from './public-keys';

export interface RemoteKeySetOptions {
  /** How long a fetched set is used before it is fetched again; default the answer's `Cache-Control: max-age`, else 300 s. */
  maxAgeSeconds?: number;
  /** A `kid` the set does not hold fetches it again, at most once per this many seconds (fetched or failed); default 60. */
  refetchAfterSeconds?: number;
  /**
   * A set fetched longer ago than this is not trusted any more: when it cannot be fetched again,
   * `keys()` throws (so requests are refused, and the service retries them) rather than verify with
   * keys that may have been revoked meanwhile; default 3,600 (an hour).
   */
  maxStaleSeconds?: number;
  /** Time limit of one fetch; default 5,000 ms. */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies); default the global `fetch`. */
  fetch?: typeof fetch;
}

const DEFAULT_MAX_AGE_SECONDS = 300;
/** Once a minute at most, as the contract asks: a flood of made-up kids cannot make us hammer the service. */
const DEFAULT_REFETCH_AFTER_SECONDS = 60;
const DEFAULT_MAX_STALE_SECONDS = 3_600;

/**
 * A domain's JWK Set fetched from the service (`webhookJwksUrl(baseUrl, domain)`) and kept: fetched
 * again once it is older than its max-age, or when a token names a `kid` it does not hold (after a
 * revocation the next key signs at once; after a rotation it was published long before), at most
 * once a minute. Concurrent requests share one fetch. A failed fetch keeps the set it had until that
 * set is `maxStaleSeconds` old (an hour), then throws: a key revoked since must not verify for ever.
 *
 * ```ts
 * const keys = new RemoteKeySet(webhookJwksUrl('https://api.tailsync.example', 'acme'));
 * verifyWebhookRequest({ authorizationHeader, rawBody, publicKeys: await keys.keys(kidOf(authorizationHeader)) });
 * ```
 * The Express, Fastify and Nest helpers take it as `{ publicKeys: keys }` and do this themselves.
 */
export class RemoteKeySet {
  private set: WebhookJwks | undefined;
  private fetchedAt = 0;
  /** When a fetch last started, whatever came of it: bounds the fetches an unknown kid makes. */
  private triedAt = 0;
  private maxAgeMs = DEFAULT_MAX_AGE_SECONDS * 1000;
  private inFlight: Promise<WebhookJwks> | undefined;

  constructor(
    readonly url: string,
    private readonly options: RemoteKeySetOptions = {},
  ) {
    if (!/^https?:\/\//.test(url)) throw new TypeError('RemoteKeySet: url must be an absolute http or https URL');
  }

  /** The set, fetched when stale, or when `kid` is given and the set does not hold it (at most once per refetchAfterSeconds). */
  async keys(kid?: string): Promise<WebhookJwks> {
    const now = Date.now();
    const set = this.set;
    if (set === undefined || now - this.fetchedAt >= this.maxAgeMs) return this.refresh(set);
    const unknownKid = kid !== undefined && !set.keys.some((k) => k.kid === kid);
    if (unknownKid && now - this.triedAt >= (this.options.refetchAfterSeconds ?? DEFAULT_REFETCH_AFTER_SECONDS) * 1000) return this.refresh(set);
    return set;
  }

  private refresh(fallback: WebhookJwks | undefined): Promise<WebhookJwks> {
    this.triedAt = Date.now();
    this.inFlight ??= this.fetchSet()
      .catch((error: unknown) => {
        const age = (Date.now() - this.fetchedAt) / 1000;
        if (fallback === undefined) throw error;
        if (age >= (this.options.maxStaleSeconds ?? DEFAULT_MAX_STALE_SECONDS)) {
          throw new Error(`RemoteKeySet: the JWK Set was fetched ${Math.floor(age)} s ago and cannot be fetched again (${(error as Error).message}): not trusted any more`);
        }
        return fallback;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  private async fetchSet(): Promise<WebhookJwks> {
    const response = await (this.options.fetch ?? fetch)(this.url, {
      headers: { accept: 'application/jwk-set+json, application/json' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
    });
    if (!response.ok) throw new Error(`RemoteKeySet: ${this.url} answered ${response.status}`);
    const body = (await response.json()) as unknown;
    if (typeof body !== 'object' || body === null || !Array.isArray((body as WebhookJwks).keys)) throw new Error(`RemoteKeySet: ${this.url} did not answer a JWK Set`);
    const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(response.headers.get('cache-control') ?? '');
    this.maxAgeMs = 1000 * (this.options.maxAgeSeconds ?? (maxAge ? Number(maxAge[1]) : DEFAULT_MAX_AGE_SECONDS));
    this.set = body as WebhookJwks;
    this.fetchedAt = Date.now();
    return this.set;
  }
}

/** The `kid` of the JWT in an `Authorization: Token <JWT>` header, when it names one. */
export function tokenKeyId(authorizationHeader: string | readonly string[] | null | undefined): string | undefined {
  const header = Array.isArray(authorizationHeader) ? authorizationHeader[0] : authorizationHeader;
  const token = typeof header === 'string' ? header.trim().split(/\s+/)[1] : undefined;
  if (!token) return undefined;
  try {
    const kid = (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid?: unknown }).kid;
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}
