import { ArgumentMetadata, ValidationError, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { ValidationProblem } from '../problems/domain/problem';
import { compileDtoFastPath } from './dto-fast-path';

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

type FastPath = ((plain: Record<string, unknown>) => object | undefined) | null;

/**
 * Nest's ValidationPipe, with a first try through the DTO's fast path (`compileDtoFastPath`, for
 * flat DTOs): a valid body gets the same instance without class-validator's cost. Anything the
 * fast path does not accept (an invalid body, a DTO it does not model) goes through the pipe as
 * before, messages included.
 */
export class DtoValidationPipe extends ValidationPipe {
  private readonly fastPaths = new Map<unknown, FastPath>();

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const accept = this.fastPathOf(metadata);
    const accepted = accept && typeof value === 'object' && value !== null && !Array.isArray(value) ? accept(value as Record<string, unknown>) : undefined;
    return accepted ? Promise.resolve(accepted) : super.transform(value, metadata);
  }

  private fastPathOf(metadata: ArgumentMetadata): FastPath {
    const { metatype } = metadata;
    if (!metatype || !this.toValidate(metadata)) return null;
    let fast = this.fastPaths.get(metatype);
    if (fast === undefined) this.fastPaths.set(metatype, (fast = compileDtoFastPath(metatype as new () => object)));
    return fast;
  }
}

/** Body and query validation for every endpoint: unknown fields and wrong JSON types are 400 problems. */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new ValidationProblem(fieldErrorsOf(errors)),
};

export const validationPipe = new DtoValidationPipe(VALIDATION_OPTIONS);
