import { ApiProperty } from '@nestjs/swagger';

export class DomainSubscriptionView {
  @ApiProperty({ enum: ['active', 'disabled'] }) status: 'active' | 'disabled';
  @ApiProperty() url: string;
}

export class DomainView {
  @ApiProperty() domain: string;
  @ApiProperty({ description: 'Service accounts not deleted (active or disabled).' }) serviceAccounts: number;
  @ApiProperty({ description: 'Tails, active and inactive.' }) tails: number;
  @ApiProperty({ type: DomainSubscriptionView, nullable: true }) subscription: DomainSubscriptionView | null;
}

export class DomainsView {
  @ApiProperty({ type: [DomainView], description: 'Every domain that ever had a service account, by name.' }) items: DomainView[];
}
