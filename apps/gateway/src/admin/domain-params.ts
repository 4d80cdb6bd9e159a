import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export const DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const DOMAIN_MESSAGE = 'Domain must be 1 to 63 lowercase letters, digits or hyphens, starting with a letter or digit.';

/** `{domain}` in an admin path. */
export class DomainParams {
  @ApiProperty({ example: 'acme', pattern: DOMAIN_PATTERN.source })
  @IsString({ message: DOMAIN_MESSAGE })
  @Matches(DOMAIN_PATTERN, { message: DOMAIN_MESSAGE })
  domain: string;
}

/** `{domain}` and `{id}` of one delivery. */
export class DeliveryParams extends DomainParams {
  @ApiProperty()
  @IsString()
  id: string;
}
