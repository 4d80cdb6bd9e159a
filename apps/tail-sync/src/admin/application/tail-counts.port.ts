/** Token of the adapter that counts a domain's tails in the read model. */
export const TAIL_COUNTS = Symbol('TAIL_COUNTS');

export interface TailCounts {
  byDomain(domains: string[]): Promise<Record<string, number>>;
}
