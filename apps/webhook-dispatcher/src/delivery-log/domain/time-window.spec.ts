import { parseInstant, recoveryWindow } from './time-window';

describe('parseInstant', () => {
  it.each(['2025-06-01', '2025-06-01T12:00Z', '2025-06-01T12:00:00Z', '2025-06-01T12:00:00.123Z', '2025-06-01T14:00:00+02:00'])('reads %s', (text) => {
    expect(parseInstant(text)).toBeInstanceOf(Date);
  });
  it.each(['', 'yesterday', '2025-02-30', '2025-06-01T12:00:00', '2025-13-01', '1717243200', 42, null, '2025-06-01T25:00:00Z'])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
  it('keeps the offset', () => {
    expect(parseInstant('2025-06-01T14:00:00+02:00')!.toISOString()).toBe('2025-06-01T12:00:00.000Z');
  });
});

describe('recoveryWindow', () => {
  const now = new Date('2025-06-10T00:00:00Z');
  it('defaults until to now', () => {
    expect(recoveryWindow('2025-06-09T00:00:00Z', undefined, now)).toEqual({ since: new Date('2025-06-09T00:00:00Z'), until: now });
  });
  it.each([
    ['since missing', undefined, undefined, 'since'],
    ['since after until', '2025-06-09T00:00:00Z', '2025-06-08T00:00:00Z', 'since'],
    ['since equal to until', '2025-06-09T00:00:00Z', '2025-06-09T00:00:00Z', 'since'],
    ['more than 31 days', '2025-05-01T00:00:00Z', '2025-06-02T00:00:01Z', 'since'],
    ['until garbage', '2025-06-09T00:00:00Z', 'soon', 'until'],
  ])('refuses %s', (_name, since, until, field) => {
    const result = recoveryWindow(since, until, now);
    expect(result).toEqual({ errors: { [field]: [expect.any(String)] } });
  });
  it('accepts exactly 31 days', () => {
    expect(recoveryWindow('2025-05-01T00:00:00Z', '2025-06-01T00:00:00Z', now)).toHaveProperty('since');
  });
});
