import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request a {@link WebhookReceiver} got. */
export interface ReceivedRequest {
  /** 1-based, in arrival order. */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** `Date.now()` when the body was complete. */
  receivedAt: number;
  /** Response status sent (undefined while hanging). */
  status?: number;
}

/** What the receiver answers to a request: a status (and body), or nothing at all (hang). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | { hang: true };

export type ReceiverScript = (request: ReceivedRequest) => ReceiverAnswer;

/** Scripts for the usual receivers of the tests. */
export const scripts = {
  status: (status: number, body = ''): ReceiverScript => () => ({ status, body }),
  /** Answers the statuses in turn, the last one forever: `sequence(503, 200)`. */
  sequence: (...statuses: number[]): ReceiverScript => (r) => ({ status: statuses[Math.min(r.n, statuses.length) - 1] }),
  hang: (): ReceiverScript => () => ({ hang: true }),
};

/**
 * A real HTTP server on 127.0.0.1 that records every request (raw body bytes included) and answers
 * as scripted. For tests of webhook deliveries: no mocks between the dispatcher and it.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly waiters: { done: () => boolean; resolve: () => void }[] = [];
  private server!: Server;
  private port = 0;

  private constructor(private script: ReceiverScript) {}

  static async start(script: ReceiverScript = scripts.status(200)): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(script);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Replaces the script (for requests that arrive from now on). */
  answer(script: ReceiverScript): void {
    this.script = script;
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    return this.until(() => this.requests.length >= count, `${count} requests`, timeoutMs).then(() => this.requests.slice());
  }

  /** Resolves with the first request matching `predicate` (already received or still to come). */
  waitForRequest(predicate: (r: ReceivedRequest) => boolean, timeoutMs = 10_000): Promise<ReceivedRequest> {
    return this.until(() => this.requests.some(predicate), 'the awaited request', timeoutMs).then(() => this.requests.find(predicate)!);
  }

  private until(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        done,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`receiver did not get ${what} within ${timeoutMs} ms (got ${this.requests.length} requests)`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Forgets the requests received so far (their numbering starts again at 1). */
  reset(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const record: ReceivedRequest = {
          n: this.requests.length + 1,
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          receivedAt: Date.now(),
        };
        this.requests.push(record);
        let answer: ReceiverAnswer;
        try {
          answer = this.script(record);
        } catch {
          answer = { status: 500, body: 'script failed' };
        }
        if (!('hang' in answer)) this.respond(res, record, answer);
        for (const w of this.waiters.filter((w) => w.done())) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  private respond(res: ServerResponse, record: ReceivedRequest, answer: { status: number; body?: string; headers?: Record<string, string> }) {
    record.status = answer.status;
    res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
    res.end(answer.body ?? '');
  }
}
