import { getMetadataStorage } from 'class-validator';

/** The settings a config class knows: every validated or defaulted property. */
export function knownSettings(schema: new () => object): Set<string> {
  const validated = getMetadataStorage()
    .getTargetValidationMetadatas(schema, '', true, false)
    .map((m) => m.propertyName);
  return new Set([...validated, ...Object.keys(new schema())]);
}
