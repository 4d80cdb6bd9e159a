import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { DOMAIN_PATTERN as DOMAIN, DOMAIN_MESSAGE } from '../../admin/domain-params';
import { IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';


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

export class ServiceAccountsQuery {
  @ApiPropertyOptional({ description: "Only this domain's accounts.", pattern: DOMAIN.source })
  @IsOptional()
  @IsString({ message: DOMAIN_MESSAGE })
  @Matches(DOMAIN, { message: DOMAIN_MESSAGE })
  domain?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 200.' })
  @Min(1, { message: 'limit must be an integer from 1 to 200.' })
  @Max(200, { message: 'limit must be an integer from 1 to 200.' })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page.', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'cursor is invalid.' })
  @MaxLength(200, { message: 'cursor is invalid.' })
  cursor?: string;
}
