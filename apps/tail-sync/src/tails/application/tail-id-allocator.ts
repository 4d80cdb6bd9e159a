/** Hands out new service tail ids: positive integers, unique in the service, never reused. */
export interface TailIdAllocator {
  /** `count` fresh ids, ascending. */
  next(count: number): Promise<number[]>;
}
