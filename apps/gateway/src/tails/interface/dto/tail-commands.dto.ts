import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class TailReferenceDto {
  @ApiProperty({ description: 'Your Mapped ID of the tail.', minLength: 1, maxLength: 50 })
  @IsString({ message: 'Tail id must be a string.' })
  @IsNotEmpty({ message: 'Tail id is required.' })
  @MaxLength(50, { message: 'Tail id must be at most 50 characters.' })
  tailId: string;
}

export class ChangeTailNumberDto extends TailReferenceDto {
  @ApiProperty({ maxLength: 50, pattern: '\\S', description: 'Trimmed (so not blank).' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'New tail number must be a string.' })
  @IsNotEmpty({ message: 'New tail number is required.' })
  @MaxLength(50, { message: 'New tail number must be at most 50 characters.' })
  newTailNumber: string;
}
