import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageValidator } from '../kafka/message-validator';
import { callbackSchema } from './callback-schema';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types';

/** Real callbacks a running stack sent (`npm run record-callbacks`), as receivers got them. */
const RECORDED = join(__dirname, '..', '..', '..', 'webhook-signing', 'vectors', 'recorded.json');
const recordedBodies = (JSON.parse(readFileSync(RECORDED, 'utf8')) as { vectors: { kind: string; body: string }[] }).vectors
  .filter((vector) => vector.kind === 'event')
  .map((vector) => JSON.parse(vector.body) as { eventName: string });

describe('the callback schema of each event type', () => {
  const schemaOf = (eventName: string) => {
    const type = WEBHOOK_EVENT_TYPES.find((candidate) => candidate.name === eventName);
    if (!type) throw new Error(`a recorded callback names ${eventName}, which the registry does not have`);
    return callbackSchema(type);
  };

  it('is met by every real callback the stack recorded', () => {
    expect(recordedBodies.length).toBeGreaterThan(0);
    for (const body of recordedBodies) expect({ body, reason: messageValidator(schemaOf(body.eventName))(body) }).toEqual({ body, reason: null });
  });

  it.each(WEBHOOK_EVENT_TYPES.map((type) => [type.name, type]))('%s: is met by its example and refuses another event name', (_name, type) => {
    const schema = callbackSchema(type);
    const check = messageValidator(schema);
    const [example] = schema.examples as { eventName: string }[];
    expect(check(example)).toBeNull();
    expect(check({ ...example, eventName: 'Product.Other' })).toBe('/eventName must be equal to constant');
  });
});
