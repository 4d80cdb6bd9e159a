import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema';

/** `null` when the value meets the schema, else the reason (the validator's first error). */
export type MessageCheck = (value: unknown) => string | null;

// One Ajv instance compiles every schema (each compiled function is cached on it).
let ajv: Ajv | undefined;

function validatorInstance(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false });
    addFormats(ajv, ['date-time', 'uri']);
  }
  return ajv;
}

/** `/eventId must match pattern "…"`: where the value fails, then what the schema wants. */
export function describeSchemaError(error: ErrorObject): string {
  return `${error.instancePath || '(value)'} ${error.message ?? 'is invalid'}`;
}

/** A JSON Schema (draft-07) check of a decoded message value or of its headers. */
export function messageValidator(schema: JsonSchema): MessageCheck {
  const instance = validatorInstance();
  const validate = (schema.$id && instance.getSchema(schema.$id)) || instance.compile(schema);
  return (value) => (validate(value) ? null : describeSchemaError((validate.errors ?? [])[0] ?? ({ instancePath: '', message: 'is invalid' } as ErrorObject)));
}
