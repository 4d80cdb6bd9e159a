import type { ProblemKind, RpcProblem } from '../rpc';
import type { Messages__Output, Problem, Problem__Output } from './wire';

const KIND_TO_WIRE = { validation: 'VALIDATION', 'not-found': 'NOT_FOUND', conflict: 'CONFLICT', unavailable: 'UNAVAILABLE' } as const;
const KIND_FROM_WIRE: Record<string, ProblemKind> = Object.fromEntries(Object.entries(KIND_TO_WIRE).map(([kind, wire]) => [wire, kind as ProblemKind]));

/** Field name → messages, as the wire's `map<string, Messages>` carries it. */
export function fieldErrorsToWire(fieldErrors: Record<string, string[]> = {}): Record<string, { messages: string[] }> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, messages]) => [field, { messages }]));
}

export function fieldErrorsFromWire(fieldErrors: Record<string, Messages__Output>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, { messages }]) => [field, messages]));
}

export function problemToWire(problem: RpcProblem): Problem {
  return {
    kind: KIND_TO_WIRE[problem.kind],
    title: problem.title ?? '',
    detail: problem.detail ?? '',
    fieldErrors: fieldErrorsToWire(problem.fieldErrors),
    generalErrors: problem.generalErrors ?? [],
  };
}

/** An unknown kind reads as `unavailable`: the gateway then answers 503, never a wrong success. */
export function problemFromWire(problem: Problem__Output): RpcProblem {
  return {
    kind: KIND_FROM_WIRE[problem.kind] ?? 'unavailable',
    ...(problem.title ? { title: problem.title } : {}),
    ...(problem.detail ? { detail: problem.detail } : {}),
    fieldErrors: fieldErrorsFromWire(problem.fieldErrors),
    generalErrors: problem.generalErrors,
  };
}
