import { messageValidator } from './message-validator';
import { RISK_ASSESSMENT_EXECUTED_SCHEMA } from '../webhook-events/risk-assessment-executed/risk-assessment-executed.schema';
import { TAIL_EVENT_SCHEMA } from './tail-event.schema';

const risk = messageValidator(RISK_ASSESSMENT_EXECUTED_SCHEMA);
const good = { eventId: '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10', domain: 'acme', occurredAt: '2025-06-01T12:00:00.000Z', data: { score: 3 } };
const tailEvent = { eventId: good.eventId, type: 'TailRenumbered', domain: 'acme', tailId: 7, mappedIds: ['a'], occurredAt: good.occurredAt, data: { actor: 'c', fromTailNumber: 'A', toTailNumber: 'B' }, position: '12:3' };

describe('messageValidator', () => {
  it('accepts a valid message and names where and why an invalid one fails', () => {
    expect(risk(good)).toBeNull();
    expect(risk({ ...good, eventId: 'nope' })).toMatch(/^\/eventId must match pattern/);
    expect(risk({ ...good, occurredAt: '2025-13-45T12:00:00Z' })).toMatch(/^\/occurredAt must match pattern "/);
    expect(risk({ ...good, domain: undefined })).toBe("(value) must have required property 'domain'");
    expect(risk([1])).toBe('(value) must be object');
  });

  it('checks each tail event type\'s data, and lets a type it does not know through', () => {
    const check = messageValidator(TAIL_EVENT_SCHEMA);
    expect(check(tailEvent)).toBeNull();
    expect(check({ ...tailEvent, data: { actor: 'c', fromTailNumber: 'A' } })).toBe("/data must have required property 'toTailNumber'");
    expect(check({ ...tailEvent, type: 'TailRepainted', data: { actor: 'c' } })).toBeNull();
    expect(check({ ...tailEvent, position: '12' })).toMatch(/^\/position must match pattern/);
  });
});
