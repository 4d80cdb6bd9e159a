import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DomainBackfillsController } from './interface/domain-backfills.controller';
import { DomainDeliveriesController } from './interface/domain-deliveries.controller';
import { DomainTailsController } from './interface/domain-tails.controller';
import { DomainsController } from './interface/domains.controller';
import { DomainSigningKeysController } from './interface/domain-signing-keys.controller';
import { DomainSubscriptionController } from './interface/domain-subscription.controller';
import { OverviewController } from './interface/overview.controller';

/** Operators' endpoints over every domain's data (the service accounts' are in AuthModule). */
// WebhooksModule: an operator's Test call counts against the domain's Test-call limit too.
@Module({ imports: [AuthModule, WebhooksModule], controllers: [OverviewController, DomainsController, DomainSubscriptionController, DomainDeliveriesController, DomainBackfillsController, DomainSigningKeysController, DomainTailsController] })
export class AdminModule {}
