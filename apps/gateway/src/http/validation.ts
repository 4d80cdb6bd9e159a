import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationProblem } from '../problems/problem';

/** `fieldErrors` of the validation object: messages by field path (`tails[3].tailNumber`). */
export function fieldErrorsOf(errors: ValidationError[], prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const path = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    // Rules sharing one message (e.g. limit's integer, min and max) say it once.
    const messages = [...new Set(Object.values(error.constraints ?? {}))];
    // When a field is missing, "is required" alone says it; type and length rules add nothing.
    const required = messages.find((m) => / is required\.$/.test(m));
    if (messages.length > 0) out[path] = required ? [required] : messages;
    Object.assign(out, fieldErrorsOf(error.children ?? [], path));
  }
  return out;
}

/** Body and query validation for every endpoint: unknown fields and wrong JSON types are 400 problems. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new ValidationProblem(fieldErrorsOf(errors)),
});
