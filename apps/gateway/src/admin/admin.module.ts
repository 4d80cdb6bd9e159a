import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DomainDeliveriesController } from './domain-deliveries.controller';
import { DomainTailsController } from './domain-tails.controller';
import { DomainsController } from './domains.controller';

/** Operators' endpoints over every domain's data (the service accounts' are in AuthModule). */
@Module({ imports: [AuthModule], controllers: [DomainsController, DomainDeliveriesController, DomainTailsController] })
export class AdminModule {}
