import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class TailListQuery {
  @ApiPropertyOptional({ enum: ['active', 'inactive'] })
  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'Status must be active or inactive.' })
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({ description: 'Exact tail number, case-insensitive.', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50, { message: 'Tail number must be at most 50 characters.' })
  tailNumber?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'Limit must be an integer from 1 to 500.' })
  @Min(1, { message: 'Limit must be an integer from 1 to 500.' })
  @Max(500, { message: 'Limit must be an integer from 1 to 500.' })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page.', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'Cursor is invalid.' })
  cursor?: string;
}
