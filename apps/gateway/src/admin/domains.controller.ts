import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { SubscriptionView, TAIL_PATTERNS, TailCountsReply, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { ServiceAccountsStore } from '../auth/service-accounts.store';
import { unwrap } from '../rpc/reply';
import { ServicesClient } from '../rpc/services.client';
import { adminCaller } from './admin-caller';
import { DomainSubscriptionView, DomainsView } from './dto/domain-views';

/** Every domain with its service accounts, tails and subscription: the console's Domains page. */
@ApiTags('Admin')
@ApiBearerAuth()
@ApiServiceUnavailableResponse({ description: 'A service did not answer in time, or is down; Retry-After: 1.' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/Domains')
export class DomainsController {
  constructor(
    private readonly services: ServicesClient,
    private readonly accounts: ServiceAccountsStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every domain that ever had a service account, with its accounts, tails and subscription.' })
  @ApiOkResponse({ type: DomainsView })
  async list(@Req() req: FastifyRequest): Promise<DomainsView> {
    const domains = await this.accounts.domains();
    const names = domains.map((d) => d.domain);
    const [tails, subscriptions] = await Promise.all([
      this.services.call<TailCountsReply>(TAIL_PATTERNS.countByDomain, adminCaller('*', req), { domains: names }),
      Promise.all(names.map((domain) => this.subscriptionOf(domain, req))),
    ]);
    const counts = unwrap(tails).counts;
    return { items: domains.map((d, i) => ({ ...d, tails: counts[d.domain] ?? 0, subscription: subscriptions[i] })) };
  }

  /** The dispatcher keeps one subscription per domain and answers per domain. */
  private async subscriptionOf(domain: string, req: FastifyRequest): Promise<DomainSubscriptionView | null> {
    const reply = await this.services.call<SubscriptionView>(WEBHOOK_PATTERNS.getSubscription, adminCaller(domain, req), {});
    if (!reply.ok && reply.problem.kind === 'not-found') return null;
    const subscription = unwrap(reply);
    return { status: subscription.status, url: subscription.url };
  }
}
