import {
  EventStoreAccessDeniedError,
  EventStoreRejectedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '@tailsync/event-store';
import { ProblemError } from '@tailsync/service-kit';
import { TailNotFound } from '../domain/tail.errors';
import { asProblem, ownReply } from './tail-problems';

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

describe('ownReply (one answer among the several of a GetTails call)', () => {
  it('answers the result under its field', async () => {
    await expect(ownReply('tail', Promise.resolve({ mappedId: 'm-1' }))).resolves.toEqual({ tail: { mappedId: 'm-1' } });
  });

  it('answers a decided rejection as this answer\'s own problem (404), leaving the others', async () => {
    const reply = await ownReply('tail', Promise.reject(new TailNotFound('m-2')));
    expect(reply).toMatchObject({ problem: { kind: 'NOT_FOUND', detail: expect.stringContaining('m-2') } });
  });

  it('fails the whole call when a dependency is down (503 for each read, as alone), or on a bug', async () => {
    await expect(ownReply('tail', Promise.reject(new EventStoreUnavailableError('timed out')))).rejects.toMatchObject({ problem: { kind: 'unavailable' } });
    const bug = new TypeError('x is undefined');
    await expect(ownReply('tail', Promise.reject(bug))).rejects.toBe(bug);
  });
});
