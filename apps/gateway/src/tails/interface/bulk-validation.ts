import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { TailPropertiesInput } from '@tailsync/contracts';
import { compileDtoFastPath } from '../../http/dto-fast-path';
import { fieldErrorsOf } from '../../http/validation';
import { TailDto } from './dto/tail.dto';

const acceptTail = compileDtoFastPath(TailDto);

export type CheckedTail = { ok: true; tail: TailDto & TailPropertiesInput } | { ok: false; fieldErrors: Record<string, string[]>; generalErrors: string[] };

/** Validates one submitted tail on its own, as the bulk endpoint needs (an invalid entry fails alone). */
export function checkTail(entry: unknown): CheckedTail {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { ok: false, fieldErrors: {}, generalErrors: ['Each tail must be a JSON object.'] };
  }
  const accepted = acceptTail?.(entry as Record<string, unknown>);
  if (accepted) return { ok: true, tail: { ...accepted } };
  const dto = plainToInstance(TailDto, entry);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
  if (errors.length > 0) return { ok: false, fieldErrors: fieldErrorsOf(errors), generalErrors: [] };
  return { ok: true, tail: { ...dto } };
}

/** The submitted Mapped ID as the entry's operationId: a string, "" when none was given. */
export function operationIdOf(entry: unknown): string {
  const id = (entry as { tailId?: unknown } | null)?.tailId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}
