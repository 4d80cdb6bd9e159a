import { WEBHOOK_EVENT_NAMES } from '@tailsync/contracts';

export const SHARED_SECRET_MIN = 64;
export const SHARED_SECRET_MAX = 1024;

/** Field errors of `eventNames` (contract: a non-empty array of the registry's event names). */
export function eventNamesErrors(eventNames: unknown): string[] {
  if (!Array.isArray(eventNames) || eventNames.length === 0) return ['eventNames must be a non-empty array.'];
  if (eventNames.some((n) => typeof n !== 'string' || !WEBHOOK_EVENT_NAMES.includes(n))) {
    return [`eventNames may only contain ${WEBHOOK_EVENT_NAMES.join(', ')}.`];
  }
  return [];
}

export function sharedSecretErrors(secret: unknown): string[] {
  if (typeof secret !== 'string') return ['sharedSecret must be a string.'];
  if (secret.length < SHARED_SECRET_MIN || secret.length > SHARED_SECRET_MAX) {
    return [`sharedSecret must be between ${SHARED_SECRET_MIN} and ${SHARED_SECRET_MAX} characters long.`];
  }
  return [];
}
