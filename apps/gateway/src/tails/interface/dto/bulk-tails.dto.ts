import { ApiProperty } from '@nestjs/swagger';
import { MAX_BULK_TAILS } from '@tailsync/contracts';
import { ArrayMaxSize, IsArray } from 'class-validator';
import { TailDto } from './tail.dto';

/** Entries are validated one by one (an invalid entry fails alone), so only the list's shape is checked here. */
export class BulkTailsDto {
  @ApiProperty({ type: [TailDto], maxItems: MAX_BULK_TAILS })
  @IsArray({ message: 'Tails is required and must be an array.' })
  @ArrayMaxSize(MAX_BULK_TAILS, { message: `At most ${MAX_BULK_TAILS} tails per call.` })
  tails: unknown[];
}
