import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { TailCountsReply } from '@tailsync/contracts';
import { TAIL_COUNTS, type TailCounts } from './tail-counts.port';

export class CountTails extends Query<TailCountsReply> {
  constructor(readonly domains: string[]) {
    super();
  }
}

@QueryHandler(CountTails)
export class CountTailsHandler implements IQueryHandler<CountTails, TailCountsReply> {
  constructor(@Inject(TAIL_COUNTS) private readonly tails: TailCounts) {}

  async execute({ domains }: CountTails): Promise<TailCountsReply> {
    const counted = await this.tails.byDomain(domains);
    return { counts: Object.fromEntries(domains.map((domain) => [domain, counted[domain] ?? 0])) };
  }
}
