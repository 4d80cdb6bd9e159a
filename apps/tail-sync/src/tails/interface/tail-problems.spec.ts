import {
  EventStoreAccessDeniedError,
  EventStoreRejectedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '@tailsync/event-store';
import { ProblemError } from '@tailsync/service-kit';
import { asProblem } from './tail-problems';

const problemOf = (error: unknown) => {
  try {
    asProblem(error);
  } catch (thrown) {
    return thrown instanceof ProblemError ? thrown.problem.kind : thrown;
  }
};

describe('asProblem (event store errors)', () => {
  it('answers 503, never 500, when the event store is slow, down, or refuses a change', () => {
    expect(problemOf(new EventStoreUnavailableError('timed out'))).toBe('unavailable');
    expect(problemOf(new WrongExpectedVersionError('tail-1', 1, 2))).toBe('unavailable');
    expect(problemOf(new EventStoreAccessDeniedError('denied'))).toBe('unavailable');
    expect(problemOf(new StreamDeletedError('tail-1'))).toBe('unavailable');
    expect(problemOf(new EventStoreRejectedError('MaximumAppendEventSizeExceeded'))).toBe('unavailable');
  });

  it('lets an unknown error through (a bug: logged and answered 500 by the transport)', () => {
    const bug = new TypeError('x is undefined');
    expect(problemOf(bug)).toBe(bug);
  });
});
