import { TransformationType, type ClassTransformOptions } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';

// class-transformer's own registry of decorators (what plainToInstance reads), and its default options.
/* eslint-disable @typescript-eslint/no-require-imports */
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };
const { defaultOptions } = require('class-transformer/cjs/constants/default-options.constant') as { defaultOptions: ClassTransformOptions };
/* eslint-enable @typescript-eslint/no-require-imports */

type Plain = Record<string, unknown>;
type Condition = (object: object, value: unknown) => boolean;
type Rule = { validate: (value: unknown, args: ValidationArguments) => boolean; constraints: unknown[] };
type Transform = (params: { value: unknown; key: string; obj: Plain; type: TransformationType; options: object }) => unknown;

interface PropertyCheck {
  name: string;
  /** Declared as an array, with no transform: an array value is taken as it is (see below). */
  takesArray: boolean;
  transforms: Transform[];
  conditions: Condition[];
  rules: Rule[];
}

/**
 * A fast acceptance check for a flat DTO, read once from the same decorators that
 * `plainToInstance` + `validateSync(…, { whitelist, forbidNonWhitelisted })` apply, for the bulk
 * endpoint's 1,000 entries per call (those two took about half of the gateway's CPU).
 *
 * It only ever accepts: it returns the instance `plainToInstance` would build when that instance
 * has no validation error, and `undefined` for everything else (a rule that fails, an unknown
 * field, an object value, which class-transformer would convert), so the caller runs
 * class-validator for the messages. `compileDtoFastPath` returns `null` for a class with
 * decorators it does not model (nested types, groups, `@Expose`, async rules...).
 *
 * An array value of a property declared as an array (without `@Type`, `@Transform` or nested
 * validation: `BulkTailsDto.tails`) is kept as parsed: `plainToInstance` would copy it element by
 * element into an equal array (its entries are checked one by one afterwards).
 */
export function compileDtoFastPath<T extends object>(cls: new () => T): ((plain: Plain) => T | undefined) | null {
  const hasStorage = (m: unknown) => m instanceof Map && m.has(cls);
  const storage = defaultMetadataStorage as unknown as Record<string, unknown>;
  if (['_typeMetadatas', '_exposeMetadatas', '_excludeMetadatas'].some((k) => hasStorage(storage[k])) || defaultMetadataStorage.getStrategy(cls) !== 'none') {
    return null;
  }
  const validation = getMetadataStorage();
  const metadatas = validation.getTargetValidationMetadatas(cls, '', false, false);
  const byProperty = new Map<string, PropertyCheck>();
  for (const m of metadatas) {
    if (m.each || m.always !== undefined || (m.groups && m.groups.length > 0)) return null;
    let check = byProperty.get(m.propertyName);
    if (!check) {
      const transforms = defaultMetadataStorage.findTransformMetadatas(cls, m.propertyName, TransformationType.PLAIN_TO_CLASS);
      if (transforms.some((t) => t.options.groups?.length || t.options.since !== undefined || t.options.until !== undefined)) return null;
      const declared: unknown = Reflect.getMetadata('design:type', cls.prototype, m.propertyName);
      check = { name: m.propertyName, takesArray: declared === Array && transforms.length === 0, transforms: transforms.map((t) => t.transformFn as Transform), conditions: [], rules: [] };
      byProperty.set(m.propertyName, check);
    }
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      check.conditions.push(m.constraints[0] as Condition);
    } else if (m.type === ValidationTypes.CUSTOM_VALIDATION && m.constraintCls) {
      for (const c of validation.getTargetValidatorConstraints(m.constraintCls)) {
        if (c.async) return null;
        check.rules.push({ validate: (value, args) => c.instance.validate(value, args) as boolean, constraints: m.constraints });
      }
    } else {
      return null;
    }
  }
  const properties = [...byProperty.values()];
  const targetName = cls.name;

  return (plain: Plain): T | undefined => {
    const instance = new cls() as Plain;
    for (const key of Object.keys(plain)) {
      const check = byProperty.get(key);
      const value = plain[key];
      if (!check || (typeof value === 'object' && value !== null && !(check.takesArray && Array.isArray(value)))) return undefined;
      let v = value;
      for (const transform of check.transforms) v = transform({ value: v, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: defaultOptions });
      instance[key] = v;
    }
    for (const p of properties) {
      const value = instance[p.name];
      if (!p.conditions.every((condition) => condition(instance, value))) continue;
      for (const rule of p.rules) {
        if (!rule.validate(value, { targetName, property: p.name, object: instance, value, constraints: rule.constraints })) return undefined;
      }
    }
    return instance as T;
  };
}
