import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { declareTailPropertyInputs } from './tail-property.decorators';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A tail as submitted (docs/contract.md, "Tails"), with its validation messages. */
export class TailDto {
  @ApiProperty({ description: 'Your identifier for the tail (Mapped ID), 1 to 50 characters, compared exactly.', minLength: 1, maxLength: 50, example: 'efb-42' })
  @IsString({ message: 'Tail id must be a string.' })
  @IsNotEmpty({ message: 'Tail id is required.' })
  @MaxLength(50, { message: 'Tail id must be at most 50 characters.' })
  tailId: string;

  @ApiProperty({ maxLength: 20, pattern: '\\S', example: 'N123AB', description: 'Trimmed (so not blank); compared case-insensitively within your domain.' })
  @Transform(trim)
  @IsString({ message: 'Tail number must be a string.' })
  @IsNotEmpty({ message: 'Tail number is required.' })
  @MaxLength(20, { message: 'Tail number must be at most 20 characters.' })
  tailNumber: string;
}

// The optional properties (registrationNumber, …) come from the table of tail properties; the
// controller hands the instance on as a `TailSubmission` (its `tailId` as `mappedId`), which names them.
declareTailPropertyInputs(TailDto);
