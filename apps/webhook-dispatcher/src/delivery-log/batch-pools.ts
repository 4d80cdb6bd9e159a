import type { Pool } from 'pg';

/** The largest batch written with a plan made once (see {@link BatchPools}); a burst's batches are planned for their values. */
export const PLANNED_ONCE_MAX_BATCH = 32;

/**
 * Where the steady path's writes go. Batches of up to {@link PLANNED_ONCE_MAX_BATCH} rows run on
 * connections that plan each statement once (`createPool(url, max, 'once')`): at a steady rate a
 * consumed batch is an event or two and a record batch a dozen attempts, and planning each
 * statement every time cost PostgreSQL as much as running it. Larger batches are planned for their
 * values, on the main pool.
 */
export class BatchPools {
  constructor(
    readonly main: Pool,
    private readonly plannedOnce: Pool = main,
  ) {}

  for(rows: number): Pool {
    return rows <= PLANNED_ONCE_MAX_BATCH ? this.plannedOnce : this.main;
  }
}
