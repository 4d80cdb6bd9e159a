import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../../auth/interface/admin-token.guard';
import { ServiceAccountsStore } from '../../auth/infrastructure/service-accounts.store';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { unlessNotFound } from '../../services/infrastructure/reply';
import { TailSyncClient } from '../../services/infrastructure/tail-sync.client';
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
    private readonly tailSync: TailSyncClient,
    private readonly dispatcher: DispatcherClient,
    private readonly accounts: ServiceAccountsStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every domain that ever had a service account, with its accounts, tails and subscription.' })
  @ApiOkResponse({ type: DomainsView })
  async list(@Req() req: FastifyRequest): Promise<DomainsView> {
    const domains = await this.accounts.domains();
    const names = domains.map((d) => d.domain);
    const [tails, subscriptions] = await Promise.all([
      this.tailSync.countByDomain(adminCaller('*', req), names),
      Promise.all(names.map((domain) => this.subscriptionOf(domain, req))),
    ]);
    const { counts } = tails;
    return { items: domains.map((d, i) => ({ ...d, tails: counts[d.domain] ?? 0, subscription: subscriptions[i] })) };
  }

  /** The dispatcher keeps one subscription per domain and answers per domain. */
  private async subscriptionOf(domain: string, req: FastifyRequest): Promise<DomainSubscriptionView | null> {
    const subscription = await unlessNotFound(this.dispatcher.getSubscription(adminCaller(domain, req)));
    return subscription && { status: subscription.status, url: subscription.url };
  }
}
