import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { declareTailPropertyViews } from './tail-property.decorators';

export class ValidationObjectView {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }) fieldErrors: Record<string, string[]>;
  @ApiProperty({ type: [String] }) generalErrors: string[];
  @ApiProperty({ example: false }) isValid: false;
  @ApiProperty() title: string;
  @ApiProperty({ format: 'uuid' }) instance: string;
  @ApiProperty({ example: 'http://localhost:3000/docs/errors#validation-errors' }) type: string;
  @ApiProperty() detail: string;
}

export class OperationResultView {
  @ApiProperty({ description: 'The submitted tailId (Mapped ID); "" when none was given.' }) operationId: string;
  @ApiProperty() isValid: boolean;
  @ApiPropertyOptional({ description: 'The service\'s numeric tail id (valid entries).' }) tailId?: number;
  @ApiPropertyOptional() wasCreated?: boolean;
  @ApiPropertyOptional() newSourceMappingAdded?: boolean;
  @ApiPropertyOptional({ type: ValidationObjectView }) validation?: ValidationObjectView;
}

export class BulkResultView {
  @ApiProperty({ type: [OperationResultView] }) operations: OperationResultView[];
}

export class TailMappingView {
  @ApiProperty() source: string;
  @ApiProperty() mappedId: string;
}

/** What names a tail, then its optional properties (from the table of tail properties): the view's first members, in order. */
class TailViewHead {
  @ApiProperty() tailId: number;
  @ApiProperty({ nullable: true, type: String }) mappedId: string | null;
  @ApiProperty() tailNumber: string;
}
declareTailPropertyViews(TailViewHead);

export class TailView extends TailViewHead {
  @ApiProperty({ enum: ['active', 'inactive'] }) status: 'active' | 'inactive';
  @ApiProperty({ type: [TailMappingView] }) mappings: TailMappingView[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty() version: number;
}

export class TailPageView {
  @ApiProperty({ type: [TailView] }) items: TailView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

export class TailHistoryItemView {
  @ApiProperty({ format: 'uuid' }) eventId: string;
  @ApiProperty({ enum: ['TailCreated', 'MappingAdded', 'TailDeactivated', 'TailReactivated', 'TailRenumbered'] }) type: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty() version: number;
  @ApiProperty({ description: 'The acting service account (clientId).' }) source: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: Record<string, unknown>;
}

export class TailHistoryView {
  @ApiProperty({ type: [TailHistoryItemView] }) items: TailHistoryItemView[];
}
