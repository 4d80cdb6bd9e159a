import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { guardedLookup, isPublicAddress, SSRF_ERROR_CODE } from './domain/ssrf-guard';
import { resolverLookup } from './resolver-lookup';

/** A host that does not resolve and one that resolves to a non-public address get the same words. */
const HOST_NOT_PUBLIC_ERROR = 'refused: the url host does not resolve to a public address';
const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA', 'ESERVFAIL', 'ETIMEOUT']);

export interface AttemptRequest {
  url: string;
  /** The exact JSON text to send (UTF-8). */
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Keep up to this many bytes of the response body (the Test call's `responseBodySnippet`). */
  snippetBytes?: number;
}

/**
 * What came of one attempt. `errorCode` is what retry-policy.ts classifies: `timeout`,
 * `connection`, `ssrf`, `invalid-url`; `error` is the human-readable text kept in the delivery
 * log (never an address the guard refused, never a secret).
 */
export interface AttemptResult {
  statusCode?: number;
  errorCode?: 'timeout' | 'connection' | 'ssrf' | 'invalid-url';
  error?: string;
  durationMs: number;
  responseBodySnippet?: string;
  /** The response's `Retry-After` header, as sent. */
  retryAfter?: string;
}

const MAX_DRAINED_BYTES = 1024 * 1024;

/**
 * Sends one callback attempt with `http.request` / `https.request`: POST, the exact body, no
 * redirects followed (a 3xx is simply the answer), one time limit over connect + response.
 *
 * SSRF guard twice over: IP-literal hosts (Node skips `lookup` for them) are checked here before
 * connecting; names are checked by {@link guardedLookup} against the address actually dialled.
 * Keep-alive agents reuse connections to fast receivers.
 */
export class AttemptSender {
  private readonly lookup: LookupFunction;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly allowPrivate: boolean) {
    this.lookup = guardedLookup(allowPrivate, resolverLookup());
    const options = { keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 256, scheduling: 'lifo' as const };
    this.httpAgent = new http.Agent(options);
    this.httpsAgent = new https.Agent(options);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  send(request: AttemptRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve({ errorCode: 'invalid-url', error: 'the subscription url is not a valid absolute URL', durationMs: elapsed() });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.resolve({ errorCode: 'invalid-url', error: 'the subscription url is not http or https', durationMs: elapsed() });
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      return Promise.resolve({ errorCode: 'ssrf', error: HOST_NOT_PUBLIC_ERROR, durationMs: elapsed() });
    }

    const body = Buffer.from(request.body, 'utf8');
    const https_ = url.protocol === 'https:';
    const snippetLimit = request.snippetBytes ?? 0;

    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      let statusCode: number | undefined;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const snippet = snippetLimit > 0 && statusCode !== undefined ? Buffer.concat(chunks).subarray(0, snippetLimit).toString('utf8') : undefined;
        resolve({
          ...result,
          ...(snippet !== undefined ? { responseBodySnippet: snippet } : {}),
          ...(retryAfter !== undefined ? { retryAfter } : {}),
          durationMs: elapsed(),
        });
      };

      const options: http.RequestOptions = {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        agent: https_ ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup,
      };
      const req = (https_ ? https : http).request(url, options, (res) => {
        statusCode = res.statusCode;
        const header = res.headers['retry-after'];
        retryAfter = Array.isArray(header) ? header[0] : header;
        let drained = 0;
        res.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (kept < snippetLimit) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          if (drained > MAX_DRAINED_BYTES) {
            res.destroy();
            finish({ statusCode });
          }
        });
        res.on('end', () => finish({ statusCode }));
        // The status arrived: a body cut short does not change the outcome.
        res.on('error', () => finish({ statusCode }));
        res.on('aborted', () => finish({ statusCode }));
      });
      const timer = setTimeout(() => {
        req.destroy();
        if (statusCode !== undefined) finish({ statusCode });
        else finish({ errorCode: 'timeout', error: `no response within ${request.timeoutMs} ms` });
      }, request.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (statusCode !== undefined) return finish({ statusCode });
        if (error.code === SSRF_ERROR_CODE) return finish({ errorCode: 'ssrf', error: HOST_NOT_PUBLIC_ERROR });
        // Retried (the name may come back), but worded as a refusal: no telling which names exist.
        if (DNS_FAILURES.has(error.code ?? '')) return finish({ errorCode: 'connection', error: HOST_NOT_PUBLIC_ERROR });
        finish({ errorCode: 'connection', error: `connection failed (${error.code ?? error.message})` });
      });
      req.end(body);
    });
  }
}
