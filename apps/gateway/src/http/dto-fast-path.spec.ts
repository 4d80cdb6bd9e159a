import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { validateSync } from 'class-validator';
import { TailDto } from '../tails/interface/dto/tail.dto';
import { compileDtoFastPath } from './dto-fast-path';

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } };

/** What the bulk endpoint did for every entry before the fast path: plainToInstance + validateSync. */
function slowPath(entry: Record<string, unknown>): { valid: boolean; value: Record<string, unknown> } {
  const dto = plainToInstance(TailDto, entry);
  return { valid: validateSync(dto, OPTIONS).length === 0, value: { ...dto } };
}

const VALUES: Record<string, unknown[]> = {
  tailId: ['efb-42', 'x', 'a'.repeat(50), 'a'.repeat(51), '', ' ', '✈'.repeat(50), '😀'.repeat(26), 42, null, true, undefined],
  tailNumber: ['N123AB', '  N1  ', 'n123ab', 'a'.repeat(20), ` ${'a'.repeat(20)} `, 'a'.repeat(21), '', '   ', 7, null, false, undefined],
  registrationNumber: ['D-ABCD', '', 'r'.repeat(50), 'r'.repeat(51), null, 12, undefined],
  icaoTypeName: ['B738', 'i'.repeat(100), 'i'.repeat(101), null, 0, undefined],
  vendorTypeName: ['Boeing 737-800', 'v'.repeat(101), null, undefined],
  countryCode: ['US', 'DE', 'us', 'USA', 'XX', '', null, 1, undefined],
  passengerSeating: [0, 180, 1000, 1001, -1, 1.5, -0, '180', NaN, Infinity, null, true, undefined],
};
const FIELDS = Object.keys(VALUES);

/**
 * Deterministic pseudo-random entries: every field from its list (one of its first two values, both
 * valid, three times in four), sometimes absent, sometimes with an extra field.
 */
function entries(count: number): Record<string, unknown>[] {
  let seed = 12345;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) % n; // the high bits: the low ones of this generator repeat with short periods
  };
  return Array.from({ length: count }, () => {
    const entry: Record<string, unknown> = {};
    for (const f of FIELDS) {
      if (next(5) === 0) continue;
      entry[f] = VALUES[f][next(4) > 0 ? next(2) : next(VALUES[f].length)];
    }
    if (next(20) === 0) entry.unknownField = 'x';
    return entry;
  });
}

describe('compileDtoFastPath (TailDto)', () => {
  const accept = compileDtoFastPath(TailDto)!;

  it('models TailDto', () => {
    expect(accept).not.toBeNull();
  });

  it('accepts exactly the flat entries class-validator accepts, with the instance class-transformer builds', () => {
    let accepted = 0;
    for (const entry of entries(20_000)) {
      const slow = slowPath(entry);
      const fast = accept(entry);
      expect([entry, fast === undefined ? 'rejected' : 'accepted']).toEqual([entry, slow.valid ? 'accepted' : 'rejected']);
      if (fast) {
        accepted++;
        expect(fast).toBeInstanceOf(TailDto);
        expect(Object.entries(fast)).toEqual(Object.entries(slow.value));
      }
    }
    // Both outcomes are well represented.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('leaves object and array values, and unknown fields, to class-validator', () => {
    const valid = { tailId: 'efb-1', tailNumber: 'N1' };
    expect(accept(valid)).toBeDefined();
    expect(accept({ ...valid, registrationNumber: { toString: () => 'x' } })).toBeUndefined();
    expect(accept({ ...valid, icaoTypeName: ['B738'] })).toBeUndefined();
    expect(accept({ ...valid, extra: 1 })).toBeUndefined();
  });
});

describe('compileDtoFastPath (other classes)', () => {
  class Inner {
    @IsInt() n: number;
  }
  class Nested {
    @ValidateNested() @Type(() => Inner) inner: Inner;
  }
  class Grouped {
    @IsString({ groups: ['a'] }) s: string;
  }
  class Simple {
    @IsOptional() @IsInt() n?: number;
  }

  it('declines classes with decorators it does not model', () => {
    expect(compileDtoFastPath(Nested)).toBeNull();
    expect(compileDtoFastPath(Grouped)).toBeNull();
    expect(compileDtoFastPath(Simple)).not.toBeNull();
  });
});
