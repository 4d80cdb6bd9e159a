import { dataByType, type JsonSchema } from './json-schema';
import { acceptanceGaps } from './schema-compatibility';
import { TAIL_EVENT_SCHEMA } from './tail-event.schema';

const event: JsonSchema = {
  type: 'object',
  required: ['eventId', 'type', 'data'],
  properties: { eventId: { type: 'string', pattern: '^[0-9a-f-]+$' }, type: { type: 'string' }, size: { type: 'integer', minimum: 0, maximum: 10 }, data: { type: 'object' } },
  allOf: dataByType({ Renamed: { type: 'object', required: ['to'], properties: { to: { type: 'string', maxLength: 20 } } } }),
};
const change = (edit: (s: JsonSchema) => void): JsonSchema => {
  const copy = structuredClone(event);
  edit(copy);
  return copy;
};

describe('acceptanceGaps (what a schema change breaks)', () => {
  it('finds none between a schema and itself, or the tail event schema and itself', () => {
    expect(acceptanceGaps(event, event)).toEqual([]);
    expect(acceptanceGaps(TAIL_EVENT_SCHEMA, structuredClone(TAIL_EVENT_SCHEMA))).toEqual([]);
  });

  it('compatible: an added optional field, a new event type, new descriptions, a tighter bound', () => {
    const added = change((s) => {
      s.properties!.note = { type: 'string' };
      s.allOf!.push(...dataByType({ Moved: { type: 'object', required: ['where'], properties: { where: { type: 'string' } } } }));
      s.properties!.eventId.description = 'the id';
      s.properties!.size.maximum = 5;
    });
    expect(acceptanceGaps(added, event)).toEqual([]);
  });

  it.each<[string, (s: JsonSchema) => void, RegExp]>([
    ['a required field removed', (s) => (s.required = ['eventId', 'type']), /'data' is required/],
    ['a field\'s type changed', (s) => (s.properties!.eventId.type = 'integer'), /eventId: type/],
    ['a pattern changed', (s) => (s.properties!.eventId.pattern = '^.*$'), /eventId: pattern/],
    ['a bound widened', (s) => (s.properties!.size.maximum = 100), /size: maximum 100 is above 10/],
    ['a type\'s data loosened', (s) => (s.allOf![0].then!.properties!.data.properties!.to.maxLength = 50), /if .*Renamed.*data\.to: maxLength/],
    ['a type\'s data field no longer required', (s) => (s.allOf![0].then!.properties!.data.required = []), /'to' is required/],
    ['an unknown keyword', (s) => ((s as Record<string, unknown>).oneOf = [{}]), /'oneOf' cannot be compared/],
  ])('breaking: %s', (_name, edit, reason) => {
    const gaps = acceptanceGaps(change(edit), event);
    expect(gaps.join('\n')).toMatch(reason);
  });

  it('a new required field narrows (fine to send) but widening the other way breaks (producers to us lack it)', () => {
    const narrower = change((s) => s.required!.push('size'));
    expect(acceptanceGaps(narrower, event)).toEqual([]);
    expect(acceptanceGaps(event, narrower).join()).toMatch(/'size' is required/);
  });
});
