import { ApiProperty } from '@nestjs/swagger';
import type { ProblemBody } from '../domain/problem-body';

/** The body of every error response (RFC 9457 problem details carrying the validation object), for the OpenAPI document. */
export class ProblemView implements ProblemBody {
  @ApiProperty({ format: 'uri', description: 'Link to the help page section for this kind of error (`/docs/errors#…`).' })
  type: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: 'integer' })
  status: number;

  @ApiProperty({ description: 'The first field message, or the first general error when no field failed.' })
  detail: string;

  @ApiProperty({ format: 'uuid', description: 'A fresh id of this occurrence, also in the gateway log.' })
  instance: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })
  fieldErrors: Record<string, string[]>;

  @ApiProperty({ type: [String] })
  generalErrors: string[];

  @ApiProperty({ type: 'boolean', description: 'Always false.' })
  isValid: false;
}
