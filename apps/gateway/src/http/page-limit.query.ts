import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 200.';

/** `limit` of a paged list (1 to 200, default 50); a list's query extends it. */
export class PageLimitQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(200, { message: LIMIT_MESSAGE })
  limit?: number;
}
