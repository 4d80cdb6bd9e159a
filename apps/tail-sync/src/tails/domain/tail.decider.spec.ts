import { decide, evolve, fold } from './tail.decider';
import {
  MappedIdConflict,
  TailAlreadyActive,
  TailAlreadyExists,
  TailAlreadyInactive,
  TailNotFound,
  TailNumberRequired,
  TailNumberTaken,
} from './tail.errors';
import type { TailEvent } from './tail.events';
import { initialState } from './tail.state';
import { created, meta, noProperties, T0, T1, tail } from './tail.test-fixtures';

const base = { eventId: 'e', domain: 'acme', tailId: 7, actor: 'client-b', occurredAt: T1 };

describe('evolve', () => {
  it('TailCreated creates an active tail with the creator mapping and all properties', () => {
    const s = evolve(
      initialState,
      created({ registrationNumber: 'REG', icaoTypeName: 'B738', vendorTypeName: 'Boeing 737-800', countryCode: 'US', passengerSeating: 160 }),
    );
    expect(s).toEqual({
      tailId: 7,
      domain: 'acme',
      tailNumber: 'N123',
      properties: { ...noProperties, registrationNumber: 'REG', icaoTypeName: 'B738', vendorTypeName: 'Boeing 737-800', countryCode: 'US', passengerSeating: 160 },
      status: 'active',
      mappings: [{ source: 'client-a', mappedId: 'M-1' }],
      version: 1,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('TailCreated stored before a tail property existed folds it to null', () => {
    const { data } = created({ countryCode: 'US' }) as Extract<TailEvent, { type: 'TailCreated' }>;
    const { passengerSeating: _absent, ...older } = data;
    expect(evolve(initialState, { type: 'TailCreated', data: older as typeof data }).properties).toEqual({ ...noProperties, countryCode: 'US' });
  });

  it('MappingAdded appends a mapping', () => {
    const s = evolve(tail(), { type: 'MappingAdded', data: { ...base, source: 'client-b', mappedId: 'X' } });
    expect(s.mappings).toEqual([
      { source: 'client-a', mappedId: 'M-1' },
      { source: 'client-b', mappedId: 'X' },
    ]);
    expect(s.version).toBe(2);
    expect(s.updatedAt).toBe(T1);
    expect(s.createdAt).toBe(T0);
  });

  it('TailDeactivated makes the tail inactive', () => {
    const s = evolve(tail(), { type: 'TailDeactivated', data: base });
    expect(s.status).toBe('inactive');
    expect(s.version).toBe(2);
  });

  it('TailReactivated makes the tail active again', () => {
    const s = evolve(evolve(tail(), { type: 'TailDeactivated', data: base }), { type: 'TailReactivated', data: base });
    expect(s.status).toBe('active');
    expect(s.version).toBe(3);
    expect(s.updatedAt).toBe(T1);
  });

  it('TailRenumbered changes the tail number', () => {
    const s = evolve(tail(), { type: 'TailRenumbered', data: { ...base, fromTailNumber: 'N123', toTailNumber: 'N999' } });
    expect(s.tailNumber).toBe('N999');
    expect(s.version).toBe(2);
  });

  it('does not mutate the previous state', () => {
    const s0 = tail();
    const copy = JSON.parse(JSON.stringify(s0));
    evolve(s0, { type: 'MappingAdded', data: { ...base, source: 'client-b', mappedId: 'X' } });
    evolve(s0, { type: 'TailDeactivated', data: base });
    expect(s0).toEqual(copy);
  });

  it('rejects a non-creation event on a missing tail', () => {
    expect(() => evolve(null, { type: 'TailDeactivated', data: base })).toThrow(/does not exist/);
  });

  it('fold replays a history', () => {
    const events: TailEvent[] = [created(), { type: 'TailDeactivated', data: base }, { type: 'TailReactivated', data: base }];
    expect(fold(events)?.version).toBe(3);
    expect(fold([])).toBeNull();
  });
});

describe('decide', () => {
  describe('CreateTail', () => {
    const cmd = {
      type: 'CreateTail' as const,
      ...meta('client-a'),
      tailId: 42,
      domain: 'acme',
      source: 'client-a',
      mappedId: 'M-9',
      tailNumber: '  n42  ',
      properties: { ...noProperties, countryCode: 'DE' },
    };

    it('records TailCreated with the trimmed number, the mapping and every property', () => {
      const events = decide(cmd, null);
      expect(events).toEqual([
        {
          type: 'TailCreated',
          data: {
            eventId: cmd.eventId,
            domain: 'acme',
            tailId: 42,
            actor: 'client-a',
            occurredAt: cmd.occurredAt,
            source: 'client-a',
            mappedId: 'M-9',
            tailNumber: 'n42',
            ...noProperties,
            countryCode: 'DE',
          },
        },
      ]);
    });

    it('is deterministic', () => {
      expect(decide(cmd, null)).toEqual(decide(cmd, null));
    });

    it('rejects an existing tail', () => {
      expect(() => decide(cmd, tail())).toThrow(TailAlreadyExists);
    });

    it('rejects an empty tail number', () => {
      const err = catchError(() => decide({ ...cmd, tailNumber: '   ' }, null));
      expect(err).toBeInstanceOf(TailNumberRequired);
      expect(err.fieldErrors).toEqual({ tailNumber: ['Tail number is required.'] });
    });
  });

  describe('AddMapping', () => {
    it('records MappingAdded for a new source', () => {
      const m = meta('client-b');
      expect(decide({ type: 'AddMapping', ...m, source: 'client-b', mappedId: 'X' }, tail())).toEqual([
        { type: 'MappingAdded', data: { eventId: m.eventId, domain: 'acme', tailId: 7, actor: 'client-b', occurredAt: T1, source: 'client-b', mappedId: 'X' } },
      ]);
    });

    it('is a no-op for an existing identical mapping', () => {
      expect(decide({ type: 'AddMapping', ...meta(), source: 'client-a', mappedId: 'M-1' }, tail())).toEqual([]);
    });

    it('rejects a second Mapped ID of the same source with MappedIdConflict under tailId', () => {
      const err = catchError(() => decide({ type: 'AddMapping', ...meta(), source: 'client-a', mappedId: 'M-2' }, tail()));
      expect(err).toBeInstanceOf(MappedIdConflict);
      expect(err.kind).toBe('validation');
      expect(err.status).toBe(400);
      expect(Object.keys(err.fieldErrors)).toEqual(['tailId']);
      expect(err.fieldErrors.tailId[0]).toContain('"M-1"');
    });

    it('rejects a missing tail', () => {
      expect(() => decide({ type: 'AddMapping', ...meta(), source: 'client-a', mappedId: 'M-2' }, null)).toThrow(TailNotFound);
    });
  });

  describe('DeactivateTail', () => {
    it('records TailDeactivated for an active tail', () => {
      const m = meta();
      expect(decide({ type: 'DeactivateTail', ...m }, tail())).toEqual([
        { type: 'TailDeactivated', data: { eventId: m.eventId, domain: 'acme', tailId: 7, actor: 'client-a', occurredAt: T1 } },
      ]);
    });

    it('rejects an inactive tail with 409', () => {
      const inactive = evolve(tail(), { type: 'TailDeactivated', data: base });
      const err = catchError(() => decide({ type: 'DeactivateTail', ...meta() }, inactive));
      expect(err).toBeInstanceOf(TailAlreadyInactive);
      expect(err.status).toBe(409);
      expect(err.kind).toBe('conflict');
      expect(err.message).toBe('The tail is already inactive.');
    });

    it('rejects a missing tail with 404', () => {
      const err = catchError(() => decide({ type: 'DeactivateTail', ...meta() }, null));
      expect(err).toBeInstanceOf(TailNotFound);
      expect(err.status).toBe(404);
      expect(err.kind).toBe('not-found');
    });
  });

  describe('ReactivateTail', () => {
    it('records TailReactivated for an inactive tail', () => {
      const inactive = evolve(tail(), { type: 'TailDeactivated', data: base });
      const m = meta();
      expect(decide({ type: 'ReactivateTail', ...m }, inactive)).toEqual([
        { type: 'TailReactivated', data: { eventId: m.eventId, domain: 'acme', tailId: 7, actor: 'client-a', occurredAt: T1 } },
      ]);
    });

    it('rejects an active tail with 409', () => {
      const err = catchError(() => decide({ type: 'ReactivateTail', ...meta() }, tail()));
      expect(err).toBeInstanceOf(TailAlreadyActive);
      expect(err.status).toBe(409);
      expect(err.message).toBe('The tail is already active.');
    });

    it('rejects a missing tail', () => {
      expect(() => decide({ type: 'ReactivateTail', ...meta() }, null)).toThrow(TailNotFound);
    });
  });

  describe('RenumberTail', () => {
    const renumber = (newTailNumber: string, newNumberHeldBy: number | null = null) => ({
      type: 'RenumberTail' as const,
      ...meta(),
      newTailNumber,
      newNumberHeldBy,
    });

    it('records TailRenumbered with the trimmed new number', () => {
      const c = renumber(' N999 ');
      expect(decide(c, tail())).toEqual([
        {
          type: 'TailRenumbered',
          data: { eventId: c.eventId, domain: 'acme', tailId: 7, actor: 'client-a', occurredAt: T1, fromTailNumber: 'N123', toTailNumber: 'N999' },
        },
      ]);
    });

    it('records nothing when the number is the current one (trimmed, exact)', () => {
      expect(decide(renumber('N123'), tail())).toEqual([]);
      expect(decide(renumber('  N123\t'), tail())).toEqual([]);
      expect(decide(renumber('N123', 7), tail())).toEqual([]);
    });

    it('renumbers to a change of case of the own number', () => {
      const events = decide(renumber('n123', 7), tail());
      expect(events).toHaveLength(1);
      expect(events[0].data).toMatchObject({ fromTailNumber: 'N123', toTailNumber: 'n123' });
    });

    it('rejects a number held by another tail with 409 TailNumberTaken', () => {
      const err = catchError(() => decide(renumber('N555', 8), tail()));
      expect(err).toBeInstanceOf(TailNumberTaken);
      expect(err.status).toBe(409);
      expect(err.kind).toBe('conflict');
      expect(err.message).toBe('The tail number "N555" is already used by another tail.');
    });

    it('accepts a number whose holder is the tail itself', () => {
      expect(decide(renumber('N555', 7), tail())).toHaveLength(1);
    });

    it('works on an inactive tail', () => {
      const inactive = evolve(tail(), { type: 'TailDeactivated', data: base });
      expect(decide(renumber('N1'), inactive)).toHaveLength(1);
    });

    it('rejects an empty new number under newTailNumber', () => {
      const err = catchError(() => decide(renumber('  '), tail()));
      expect(err).toBeInstanceOf(TailNumberRequired);
      expect(err.fieldErrors).toEqual({ newTailNumber: ['Tail number is required.'] });
    });

    it('rejects a missing tail', () => {
      expect(() => decide(renumber('N1'), null)).toThrow(TailNotFound);
    });
  });
});


function catchError(fn: () => unknown): any {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}
