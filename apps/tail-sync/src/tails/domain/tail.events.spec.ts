import { isTailEventType, TAIL_EVENT_TYPES, toTailEvent } from './tail.events';

describe('tail events', () => {
  it('lists the five event types', () => {
    expect(TAIL_EVENT_TYPES).toEqual(['TailCreated', 'MappingAdded', 'TailDeactivated', 'TailReactivated', 'TailRenumbered']);
    expect(isTailEventType('TailNumberClaimed')).toBe(false);
  });

  it('narrows stored records', () => {
    const e = toTailEvent({ type: 'TailDeactivated', data: { tailId: 1 } });
    expect(e.type).toBe('TailDeactivated');
    expect(() => toTailEvent({ type: 'MappedIdClaimed', data: {} })).toThrow(/Not a tail event/);
  });
});
