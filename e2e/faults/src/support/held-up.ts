import { firing } from './fault-alerts';
import type { FaultOutcome } from './run-fault';

/**
 * What every fault must hold to: each call answered 201 or with a 503 problem within the request
 * budget, nothing lost, duplicated beyond at-least-once or stuck, and no alert fired.
 */
export function expectHeldUp(outcome: FaultOutcome): void {
  expect(outcome.improperAnswers).toEqual([]);
  expect(outcome.invariants.violations).toEqual([]);
  expect(firing(outcome.alerts)).toEqual([]);
}
