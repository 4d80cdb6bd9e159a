import { ApiProperty } from '@nestjs/swagger';
import { RISK_ASSESSMENT_EXECUTED } from '@tailsync/contracts';

export class PolledEventView {
  @ApiProperty({ format: 'uuid', description: 'The event id: webhook-id of its callbacks, what a receiver dedupes on.' })
  eventId: string;
  @ApiProperty({ example: RISK_ASSESSMENT_EXECUTED })
  eventName: string;
  @ApiProperty({ format: 'date-time' })
  occurredAt: string;
  @ApiProperty({
    description: 'The exact body of the callback, as JSON text ({ eventId, eventName, occurredAt, domain, data }): verify headers against this text as is, then parse it.',
    example: '{"eventId":"…","eventName":"Product.RiskAssessmentExecuted","occurredAt":"…","domain":"…","data":{}}',
  })
  payload: string;
  @ApiProperty({
    type: 'object', additionalProperties: { type: 'string' },
    description: "The callback's headers, signed when read with the subscription's current secret or key, names in lowercase: webhook-id, webhook-timestamp, webhook-signature, authorization (Token <JWT>), webhook-attempt (1), content-type, user-agent. Post payload with them and a receiver verifies it as a callback.",
  })
  headers: Record<string, string>;
}

export class EventPageView {
  @ApiProperty({ type: [PolledEventView], description: 'Oldest first.' })
  items: PolledEventView[];
  @ApiProperty({ description: 'Pass as after to read on (the same iterator when the page is empty).' })
  iterator: string;
  @ApiProperty({ description: 'true: no later event could be read yet; wait a moment before asking again.' })
  done: boolean;
}
