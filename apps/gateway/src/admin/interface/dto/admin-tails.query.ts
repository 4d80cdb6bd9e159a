import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class AdminTailsQuery {
  @ApiPropertyOptional({ description: "A Mapped ID of any of the domain's service accounts.", maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'mappedId must not be empty.' })
  @MaxLength(200, { message: 'mappedId must be at most 200 characters.' })
  mappedId?: string;

  @ApiPropertyOptional({ description: 'Exact tail number, case-insensitive.', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'tailNumber must not be empty.' })
  @MaxLength(50, { message: 'tailNumber must be at most 50 characters.' })
  tailNumber?: string;
}

export class AdminTailHistoryQuery {
  @ApiProperty({ description: 'The clientId of a mapping of the tail (its mappings list them).', maxLength: 200 })
  @IsString({ message: 'source is required.' })
  @MaxLength(200, { message: 'source must be at most 200 characters.' })
  source: string;

  @ApiProperty({ description: "That source's Mapped ID of the tail.", maxLength: 200 })
  @IsString({ message: 'mappedId is required.' })
  @MaxLength(200, { message: 'mappedId must be at most 200 characters.' })
  mappedId: string;
}
