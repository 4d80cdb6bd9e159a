import { mayChange } from './operator-hold';

describe("an operator's disable", () => {
  it('holds against the tenant and only against the tenant', () => {
    expect(mayChange({ disabledReason: 'operator' }, 'tenant')).toBe(false);
    expect(mayChange({ disabledReason: 'operator' }, 'operator')).toBe(true);
  });

  it('leaves every other state to the tenant', () => {
    for (const disabledReason of [null, 'gone', 'failing'] as const) expect(mayChange({ disabledReason }, 'tenant')).toBe(true);
    expect(mayChange(null, 'tenant')).toBe(true);
  });
});
