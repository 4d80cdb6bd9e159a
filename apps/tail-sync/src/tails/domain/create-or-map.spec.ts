import { createOrMap, type CreateOrMapCommand } from './create-or-map';
import { evolve } from './tail.decider';
import { MappedIdConflict, TailNumberRequired } from './tail.errors';
import { noProperties, T1, tail, uuid } from './tail.test-fixtures';

function command(over: Partial<CreateOrMapCommand> = {}): CreateOrMapCommand {
  return {
    domain: 'acme',
    source: 'client-a',
    mappedId: 'M-1',
    tailNumber: 'N123',
    properties: noProperties,
    eventId: uuid(),
    occurredAt: T1,
    nextTailId: () => 100,
    ...over,
  };
}

describe('createOrMap', () => {
  it('rule 1: M already maps a tail of S → no action, even if T differs', () => {
    const existing = tail();
    const nextTailId = jest.fn(() => 100);
    const d = createOrMap(command({ tailNumber: 'OTHER', nextTailId }), { tailMappedByM: existing, tailNumberedT: null });
    expect(d).toEqual({ outcome: 'no-action', tail: existing });
    expect(nextTailId).not.toHaveBeenCalled();
  });

  it('rule 1 wins over rule 2', () => {
    const existing = tail();
    const other = tail({ tailId: 8, tailNumber: 'N123', source: 'client-z', mappedId: 'Z' });
    expect(createOrMap(command(), { tailMappedByM: existing, tailNumberedT: other }).outcome).toBe('no-action');
  });

  it('rule 2: a tail of D numbered T exists → M is mapped to it by MappingAdded', () => {
    const existing = tail({ source: 'client-a', mappedId: 'M-1' });
    const cmd = command({ source: 'client-b', mappedId: 'B-1', tailNumber: ' n123 ' });
    const d = createOrMap(cmd, { tailMappedByM: null, tailNumberedT: existing });
    expect(d.outcome).toBe('mapped');
    if (d.outcome !== 'mapped') return;
    expect(d.events).toEqual([
      {
        type: 'MappingAdded',
        data: { eventId: cmd.eventId, domain: 'acme', tailId: 7, actor: 'client-b', occurredAt: T1, source: 'client-b', mappedId: 'B-1' },
      },
    ]);
    expect(d.tail).toEqual(evolve(existing, d.events[0]));
    expect(d.tail.mappings).toContainEqual({ source: 'client-b', mappedId: 'B-1' });
  });

  it('rule 2 also maps onto an inactive tail', () => {
    const inactive = evolve(tail(), { type: 'TailDeactivated', data: { eventId: 'x', domain: 'acme', tailId: 7, actor: 'client-a', occurredAt: T1 } });
    const d = createOrMap(command({ source: 'client-b', mappedId: 'B-1' }), { tailMappedByM: null, tailNumberedT: inactive });
    expect(d.outcome).toBe('mapped');
  });

  it('rule 2 failure: S already maps that tail under another Mapped ID → MappedIdConflict under tailId', () => {
    const existing = tail({ source: 'client-a', mappedId: 'M-1' });
    let error: unknown;
    try {
      createOrMap(command({ mappedId: 'M-2' }), { tailMappedByM: null, tailNumberedT: existing });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MappedIdConflict);
    const conflict = error as MappedIdConflict;
    expect(conflict.fieldErrors.tailId).toHaveLength(1);
    expect(conflict.kind).toBe('validation');
    expect(conflict.existingMappedId).toBe('M-1');
    expect(conflict.tailId).toBe(7);
  });

  it('rule 3: nothing matches → created with a new tail id, the creator mapping and the trimmed number', () => {
    const cmd = command({
      mappedId: 'M-5',
      tailNumber: '  N777 ',
      properties: { ...noProperties, registrationNumber: 'D-ABCD', passengerSeating: 0 },
      nextTailId: () => 555,
    });
    const d = createOrMap(cmd, { tailMappedByM: null, tailNumberedT: null });
    expect(d).toEqual({
      outcome: 'created',
      events: [
        {
          type: 'TailCreated',
          data: {
            eventId: cmd.eventId,
            domain: 'acme',
            tailId: 555,
            actor: 'client-a',
            occurredAt: T1,
            source: 'client-a',
            mappedId: 'M-5',
            tailNumber: 'N777',
            ...noProperties,
            registrationNumber: 'D-ABCD',
            passengerSeating: 0,
          },
        },
      ],
    });
  });

  it('rejects an empty tail number', () => {
    expect(() => createOrMap(command({ tailNumber: ' ' }), { tailMappedByM: null, tailNumberedT: null })).toThrow(TailNumberRequired);
  });

  it('refuses an inconsistent lookup', () => {
    expect(() => createOrMap(command({ mappedId: 'nope' }), { tailMappedByM: tail(), tailNumberedT: null })).toThrow(/Lookup error/);
    expect(() => createOrMap(command({ tailNumber: 'N999' }), { tailMappedByM: null, tailNumberedT: tail() })).toThrow(/Lookup error/);
    expect(() => createOrMap(command({ domain: 'other' }), { tailMappedByM: null, tailNumberedT: tail() })).toThrow(/Lookup error/);
  });
});
