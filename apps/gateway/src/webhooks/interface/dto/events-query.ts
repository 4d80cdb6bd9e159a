import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EVENT_FEED_DEFAULT_LIMIT, EVENT_FEED_MAX_LIMIT } from '@tailsync/contracts';

const LIMIT_MESSAGE = `limit must be an integer from 1 to ${EVENT_FEED_MAX_LIMIT}.`;
const AFTER_MESSAGE = 'after is not an iterator this endpoint handed out.';

/** The query of the polling door, `GET /WebhookSubscriptions/Events`. */
export class EventsQuery {
  @ApiPropertyOptional({ description: 'iterator of the previous page. Absent: from the oldest event kept.', maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })
  @IsOptional()
  @IsString({ message: AFTER_MESSAGE })
  @MaxLength(64, { message: AFTER_MESSAGE })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: AFTER_MESSAGE })
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: EVENT_FEED_MAX_LIMIT, default: EVENT_FEED_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(EVENT_FEED_MAX_LIMIT, { message: LIMIT_MESSAGE })
  limit?: number;
}
