import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOMAIN_PATTERN as DOMAIN, DOMAIN_MESSAGE } from '../../../http/domain-name';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { PageLimitQuery } from '../../../http/page-limit.query';

export class CreateServiceAccountDto {
  @ApiProperty({ example: 'acme', pattern: DOMAIN.source })
  @IsString({ message: 'Domain is required.' })
  @Matches(DOMAIN, { message: DOMAIN_MESSAGE })
  domain: string;

  @ApiProperty({ example: 'Acme EFB' })
  @IsString({ message: 'Name is required.' })
  @Length(1, 200, { message: 'Name must be 1 to 200 characters.' })
  name: string;
}

export class ServiceAccountsQuery extends PageLimitQuery {
  @ApiPropertyOptional({ description: "Only this domain's accounts.", pattern: DOMAIN.source })
  @IsOptional()
  @IsString({ message: DOMAIN_MESSAGE })
  @Matches(DOMAIN, { message: DOMAIN_MESSAGE })
  domain?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page.', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'cursor is invalid.' })
  @MaxLength(200, { message: 'cursor is invalid.' })
  cursor?: string;
}
