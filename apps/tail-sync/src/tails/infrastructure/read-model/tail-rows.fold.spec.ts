import { created } from '../../domain/tail.test-fixtures';
import { deactivated, mappingAdded, storedTailEvents } from '../stored-tail-events.test-support';
import { eventsByTail, foldTailRows } from './tail-rows.fold';

describe('foldTailRows (events → read-model rows)', () => {
  it('folds a new tail with the domain\'s evolve: its row at the stream\'s version and each mapping once', () => {
    const events = storedTailEvents([created({ tailId: 7 }), mappingAdded(7, 'client-b', 'B-7'), deactivated(7)]);
    const warnings: string[] = [];
    const rows = foldTailRows(eventsByTail(events), new Map(), (m) => warnings.push(m));
    expect(rows.changed).toHaveLength(1);
    expect(rows.changed[0]).toMatchObject({ tailId: 7, status: 'inactive', version: 3, tailNumber: 'N123' });
    expect(rows.mappings).toEqual([
      { domain: 'acme', source: 'client-a', mappedId: 'M-1', tailId: 7, addedVersion: 1 },
      { domain: 'acme', source: 'client-b', mappedId: 'B-7', tailId: 7, addedVersion: 2 },
    ]);
    expect(rows.folded.get(7)).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('skips events the current row already has, and leaves other streams out', () => {
    const [create, map] = storedTailEvents([created({ tailId: 8 }), mappingAdded(8, 'client-b', 'B-8')]);
    const current = foldTailRows(eventsByTail([create]), new Map(), () => undefined).changed[0];
    const other = { ...map, streamId: 'tailnumber-acme-N123' };
    const rows = foldTailRows(eventsByTail([create, map, other]), new Map([[8, current]]), () => undefined);
    expect(rows.folded.get(8)).toBe(1);
    expect(rows.mappings.map((m) => m.mappedId)).toEqual(['B-8']);
    expect(rows.changed[0].version).toBe(2);
  });

  it('warns about and skips an unknown event type and an event before the tail\'s creation', () => {
    const orphan = storedTailEvents([deactivated(9)], 2);
    const unknown = storedTailEvents([{ type: 'TailPainted', data: { tailId: 10, domain: 'acme' } }], 1);
    const warnings: string[] = [];
    const rows = foldTailRows(eventsByTail([...orphan, ...unknown]), new Map(), (m) => warnings.push(m));
    expect(rows.changed).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('without its creation'), expect.stringContaining("unknown event type 'TailPainted'")]);
  });
});
