import { messageValidator, TAIL_EVENT_SCHEMA } from '@tailsync/contracts';
import { created } from '../../domain/tail.test-fixtures';
import { mappingAdded, renumbered, storedTailEvents } from '../stored-tail-events.test-support';
import { historiesInBatch, mappedIdsAfterEachVersion, tailEventMessages, tailEventOwnFields } from './tail-messages.fold';

describe('tail messages (events → topic messages)', () => {
  it('gives each version of a history the Mapped IDs after it, folded with the domain\'s evolve', () => {
    const history = storedTailEvents([created({ tailId: 7 }), renumbered(7, 'N123', 'N9'), mappingAdded(7, 'client-b', 'B-7'), { type: 'TailPainted', data: { tailId: 7 } }]);
    const after = mappedIdsAfterEachVersion(history);
    expect(after).toEqual([[], ['M-1'], ['M-1'], ['M-1', 'B-7'], ['M-1', 'B-7']]);
    expect(after[2]).toBe(after[1]); // no new array where no mapping was added
  });

  it('takes streams that start in the batch as their own history and reads back the others', () => {
    const fresh = storedTailEvents([created({ tailId: 1 }), mappingAdded(1, 'client-b', 'B-1')]);
    const older = storedTailEvents([renumbered(2, 'N123', 'N9')], 4);
    const { histories, toRead } = historiesInBatch([fresh[1], older[0], fresh[0]]);
    expect([...histories.keys()]).toEqual(['tail-1']);
    expect(histories.get('tail-1')!.map((e) => e.version)).toEqual([1, 2]);
    expect(toRead).toEqual(['tail-2']);
  });

  it('builds one message per event, keyed by domain and tail, split by size', () => {
    const events = storedTailEvents([created({ tailId: 3 }), mappingAdded(3, 'client-b', 'B-3')]);
    const chunks = tailEventMessages(events, new Map([['tail-3', mappedIdsAfterEachVersion(events)]]), 1);
    expect(chunks).toHaveLength(2); // each message alone is over the limit: one per send
    const [first] = chunks[0];
    expect(first.key).toBe('acme:3');
    const value = JSON.parse(String(first.value));
    expect(value).toMatchObject({ type: 'TailCreated', domain: 'acme', tailId: 3, mappedIds: ['M-1'], position: events[0].position });
    expect(value.data).toEqual(tailEventOwnFields('TailCreated', events[0].data));
    expect(value.data).not.toHaveProperty('eventId');
    expect(JSON.parse(String(chunks[1][0].value)).mappedIds).toEqual(['M-1', 'B-3']);
    expect(tailEventMessages(events, new Map([['tail-3', mappedIdsAfterEachVersion(events)]]), 1 << 20)).toHaveLength(1);
  });

  it('publishes a TailCreated stored before a tail property existed with that property null, as its schema requires', () => {
    const [stored] = storedTailEvents([created({ tailId: 5, countryCode: 'DE' })]);
    const { passengerSeating: _absent, ...olderData } = stored.data; // as a TailCreated of a version without passengerSeating
    const [[message]] = tailEventMessages([{ ...stored, data: olderData }], new Map([['tail-5', mappedIdsAfterEachVersion([stored])]]), 1 << 20);
    const value = { ...JSON.parse(String(message.value)), position: '1:0' }; // the test store's positions are not the real stores' form
    expect(value.data).toMatchObject({ countryCode: 'DE', passengerSeating: null });
    expect(messageValidator(TAIL_EVENT_SCHEMA)(value)).toBeNull();
    expect(messageValidator(TAIL_EVENT_SCHEMA)({ ...value, data: tailEventOwnFields('MappingAdded', olderData) })).toMatch(/passengerSeating/);
  });

  it('fails loudly when a read-back history lacks a version the batch read', () => {
    const events = storedTailEvents([renumbered(4, 'N123', 'N9')], 6);
    expect(() => tailEventMessages(events, new Map([['tail-4', [[]]]]), 1 << 20)).toThrow(/tail-4 has no version 6/);
  });
});
