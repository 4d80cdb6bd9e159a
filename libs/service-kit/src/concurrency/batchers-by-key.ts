import { Batcher, type BatcherOptions } from './batcher';

interface KeyedBatcher<Req, Res> {
  batcher: Batcher<Req, Res>;
  /** Requests submitted and not yet answered. */
  open: number;
}

/**
 * A Batcher per key: a request is batched only with requests of the same key (for example, of the
 * same caller), never with another key's. A key's Batcher is dropped once none of its requests is
 * waiting or running, so only the keys in use are held.
 */
export class BatchersByKey<Req, Res> {
  private readonly byKey = new Map<string, KeyedBatcher<Req, Res>>();

  /** `process` answers one result per request of one key, in request order. */
  constructor(
    private readonly keyOf: (request: Req) => string,
    private readonly process: (requests: Req[]) => Promise<Res[]>,
    private readonly options: BatcherOptions<Req> = {},
  ) {}

  async submit(request: Req): Promise<Res> {
    const key = this.keyOf(request);
    let keyed = this.byKey.get(key);
    if (keyed === undefined) {
      keyed = { batcher: new Batcher(this.process, this.options), open: 0 };
      this.byKey.set(key, keyed);
    }
    keyed.open++;
    try {
      return await keyed.batcher.submit(request);
    } finally {
      keyed.open--;
      if (keyed.open === 0) this.byKey.delete(key);
    }
  }

  /** Keys with a request waiting or running. */
  get keysInUse(): number {
    return this.byKey.size;
  }
}
