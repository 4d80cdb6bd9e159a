export interface BatcherOptions<Req> {
  /** Batches processed at the same time (default 1). */
  maxInFlight?: number;
  /** The most a batch carries, by `weigh` (default: no limit). A request heavier than this still runs, alone. */
  maxWeight?: number;
  /** A request's weight (default 1). */
  weigh?: (request: Req) => number;
  /**
   * When a batch of several requests fails, run each of them again alone, so a request's failure
   * is only its own (default false: every request of the batch gets the batch's error).
   */
  isolateFailures?: boolean;
}

interface Pending<Req, Res> {
  request: Req;
  resolve: (result: Res) => void;
  reject: (error: unknown) => void;
}

/**
 * Merges concurrent requests into batches ("natural" batching, as in a database's group commit):
 * requests submitted in the same tick, or while `maxInFlight` batches are running, go together
 * into the next batch. An idle batcher adds no delay beyond one `setImmediate`; a busy one makes
 * batches as large as the load, so the fixed cost of a batch (round trips, a transaction, a
 * produce request) is shared by every request in it.
 */
export class Batcher<Req, Res> {
  private readonly queue: Pending<Req, Res>[] = [];
  private readonly maxInFlight: number;
  private readonly maxWeight: number;
  private readonly weigh: (request: Req) => number;
  private readonly isolateFailures: boolean;
  private inFlight = 0;
  private scheduled = false;

  /** `process` answers one result per request, in request order. */
  constructor(
    private readonly process: (requests: Req[]) => Promise<Res[]>,
    options: BatcherOptions<Req> = {},
  ) {
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 1);
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh ?? (() => 1);
    this.isolateFailures = options.isolateFailures ?? false;
  }

  submit(request: Req): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (!this.scheduled) {
        // Lets the requests of this tick join the same batch.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Requests waiting for a batch. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private take(): Pending<Req, Res>[] {
    let weight = this.weigh(this.queue[0].request);
    let n = 1;
    while (n < this.queue.length) {
      const next = this.weigh(this.queue[n].request);
      if (weight + next > this.maxWeight) break;
      weight += next;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async run(batch: Pending<Req, Res>[]): Promise<void> {
    try {
      const results = await this.process(batch.map((p) => p.request));
      if (results.length !== batch.length) {
        throw new Error(`Batch processor answered ${results.length} results for ${batch.length} requests`);
      }
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      if (!this.isolateFailures || batch.length === 1) {
        for (const p of batch) p.reject(error);
        return;
      }
      await Promise.all(batch.map((p) => this.run([p])));
    }
  }
}
