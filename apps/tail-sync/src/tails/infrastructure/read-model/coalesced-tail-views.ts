import DataLoader from 'dataloader';
import type { TailListPage, TailListQuery, TailView } from '@tailsync/contracts';
import type { TailViews } from '../../application/tail-ports';
import type { TailsReadModel, TailViewKey } from './tails.read-model';

export interface CoalescingOptions {
  /** Reads running at once before new ones wait and go together. */
  readonly lanes: number;
  /** Most reads answered by one statement. */
  readonly maxBatch: number;
}

const DEFAULTS: CoalescingOptions = { lanes: 2, maxBatch: 200 };

/**
 * Reads of single tails, coalesced under load. A key lookup costs PostgreSQL mostly per statement,
 * not per row, so reads that arrive while `lanes` are busy wait and are answered together by one
 * statement when a lane frees. Alone, a read runs at once as its own statement: its latency is
 * unchanged. Nothing is cached: every read sees the read model as it is when its statement runs.
 */
export class CoalescedTailViews implements TailViews {
  private readonly options: CoalescingOptions;
  private readonly loader: DataLoader<TailViewKey, TailView | null, TailViewKey>;
  private busyLanes = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly readModel: TailsReadModel,
    options: Partial<CoalescingOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.loader = new DataLoader((keys) => this.read(keys), {
      cache: false,
      maxBatchSize: this.options.maxBatch,
      batchScheduleFn: (dispatch) => this.whenLaneFree(dispatch),
    });
  }

  getByMappedId(domain: string, source: string, mappedId: string): Promise<TailView | null> {
    return this.loader.load({ domain, source, mappedId });
  }

  list(domain: string, source: string, query?: TailListQuery): Promise<TailListPage> {
    return this.readModel.list(domain, source, query);
  }

  /** A batch takes a lane when one is free; else it keeps gathering reads until one frees. */
  private whenLaneFree(dispatch: () => void): void {
    if (this.busyLanes < this.options.lanes) {
      this.busyLanes++;
      process.nextTick(dispatch);
    } else {
      this.waiting.push(dispatch);
    }
  }

  private async read(keys: readonly TailViewKey[]): Promise<(TailView | null)[]> {
    try {
      if (keys.length === 1) return [await this.readModel.getByMappedId(keys[0].domain, keys[0].source, keys[0].mappedId)];
      return await this.readModel.getManyByMappedId(keys);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busyLanes--;
    }
  }
}
