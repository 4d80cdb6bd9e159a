import { RISK_ASSESSMENT_EXECUTED_EVENT, WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';
import { callbackBody, eventMessageParser } from './event-message';

const parseRiskAssessmentMessage = eventMessageParser(RISK_ASSESSMENT_EXECUTED_EVENT);

const good = { eventId: '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10', domain: 'acme', occurredAt: '2025-06-01T12:00:00.000Z', data: { score: 3 } };

describe('eventMessageParser of Product.RiskAssessmentExecuted', () => {
  it('accepts a well-formed message (key = domain or no key)', () => {
    expect(parseRiskAssessmentMessage('acme', JSON.stringify(good))).toEqual({ ok: true, event: good });
    expect(parseRiskAssessmentMessage(null, Buffer.from(JSON.stringify(good)))).toEqual({ ok: true, event: good });
    for (const occurredAt of ['2025-06-01T14:00:00+02:00', '2025-06-01T12:00Z', '2025-06-01T14:00:00.123456+0200']) {
      expect({ occurredAt, ok: parseRiskAssessmentMessage(null, JSON.stringify({ ...good, occurredAt })).ok }).toEqual({ occurredAt, ok: true });
    }
  });

  it.each([
    [null, 'empty message value'],
    ['', 'empty message value'],
    ['{', 'value is not valid UTF-8 JSON'],
    [Buffer.from([0xff, 0xfe, 0x7b]), 'value is not valid UTF-8 JSON'],
    ['[]', '(value) must be object'],
    ['"x"', '(value) must be object'],
    [JSON.stringify({ ...good, eventId: 'nope' }), /^\/eventId must match pattern "/],
    [JSON.stringify({ ...good, eventId: undefined }), "(value) must have required property 'eventId'"],
    [JSON.stringify({ ...good, domain: 'Acme Corp' }), /^\/domain must match pattern "/],
    [JSON.stringify({ ...good, domain: undefined }), "(value) must have required property 'domain'"],
    [JSON.stringify({ ...good, occurredAt: 'yesterday' }), /^\/occurredAt must match pattern "/],
    [JSON.stringify({ ...good, occurredAt: '2025-06-01T12:00:00' }), /^\/occurredAt must match pattern "/],
    [JSON.stringify({ ...good, occurredAt: '2025-13-45T12:00:00Z' }), /^\/occurredAt must match pattern "/],
    [JSON.stringify({ ...good, data: [1] }), '/data must be object'],
    [JSON.stringify({ ...good, data: null }), '/data must be object'],
  ])('refuses %p with the JSON Schema\'s reason', (value, reason) => {
    const result = parseRiskAssessmentMessage(null, value as string);
    expect(result).toEqual({ ok: false, reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
  });

  it('refuses a key that names another domain', () => {
    expect(parseRiskAssessmentMessage('globex', JSON.stringify(good))).toEqual({ ok: false, reason: expect.stringMatching(/key/) });
  });
});

describe('callbackBody', () => {
  it('is the contract shape, data passed through', () => {
    expect(JSON.parse(callbackBody('Product.RiskAssessmentExecuted', good))).toEqual({
      eventId: good.eventId,
      eventName: 'Product.RiskAssessmentExecuted',
      occurredAt: good.occurredAt,
      domain: 'acme',
      data: { score: 3 },
    });
  });
});

describe('every registered event type', () => {
  it.each(WEBHOOK_EVENT_TYPES.map((type) => [type.name, type]))('%s: its input schema demands the fields of the callback envelope', (_name, type) => {
    for (const field of ['eventId', 'domain', 'occurredAt', 'data']) {
      const without: Record<string, unknown> = { ...good };
      delete without[field];
      expect(eventMessageParser(type)(null, JSON.stringify(without))).toEqual({ ok: false, reason: `(value) must have required property '${field}'` });
    }
  });
});
