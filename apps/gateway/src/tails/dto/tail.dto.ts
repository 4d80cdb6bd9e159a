import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsISO31661Alpha2, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A tail as submitted (interface.md, "Tail (input properties)"); the contract's messages. */
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

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true })
  @IsOptional()
  @IsString({ message: 'Registration number must be a string.' })
  @MaxLength(50, { message: 'Registration number must be at most 50 characters.' })
  registrationNumber?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true, example: 'B738' })
  @IsOptional()
  @IsString({ message: 'ICAO type name must be a string.' })
  @MaxLength(100, { message: 'ICAO type name must be at most 100 characters.' })
  icaoTypeName?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true })
  @IsOptional()
  @IsString({ message: 'Vendor type name must be a string.' })
  @MaxLength(100, { message: 'Vendor type name must be at most 100 characters.' })
  vendorTypeName?: string | null;

  @ApiPropertyOptional({ type: String, description: 'ISO 3166-1 alpha-2 (an assigned code, either case)', pattern: '^[A-Za-z]{2}$', example: 'US', nullable: true })
  @IsOptional()
  @IsISO31661Alpha2({ message: 'Country code must be an ISO 3166-1 alpha-2 code.' })
  countryCode?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1000, nullable: true })
  @IsOptional()
  @IsInt({ message: 'Passenger seating must be an integer.' })
  @Min(0, { message: 'Passenger seating must be from 0 to 1,000.' })
  @Max(1000, { message: 'Passenger seating must be from 0 to 1,000.' })
  passengerSeating?: number | null;
}
