import type { AllCheckpoint } from '@tailsync/event-store';
import { CheckpointWaiters } from './checkpoint-waiters';

describe('CheckpointWaiters', () => {
  let at = 0;
  const waiters = new CheckpointWaiters((target: AllCheckpoint) => at >= Number(target.value));
  const cp = (n: number): AllCheckpoint => ({ value: String(n) });

  it('resolves each waiter at the first settle that finds its checkpoint reached', async () => {
    at = 0;
    const settled: number[] = [];
    const two = waiters.add(cp(2), 10_000, () => new Error('late')).then(() => settled.push(2));
    const five = waiters.add(cp(5), 10_000, () => new Error('late')).then(() => settled.push(5));
    expect(waiters.anyAhead()).toBe(true);
    at = 3;
    waiters.settle();
    await two;
    expect(settled).toEqual([2]);
    expect(waiters.size).toBe(1);
    at = 5;
    expect(waiters.anyAhead()).toBe(false);
    waiters.settle();
    await five;
    expect(waiters.size).toBe(0);
  });

  it('rejects with the error built when its time is up, or with the one given to rejectAll', async () => {
    at = 0;
    const late = waiters.add(cp(1), 5, () => new Error(`still at ${at}`));
    at = 0.5;
    await expect(late).rejects.toThrow('still at 0.5');
    const stopped = waiters.add(cp(1), 10_000, () => new Error('late'));
    waiters.rejectAll(new Error('stopped'));
    await expect(stopped).rejects.toThrow('stopped');
    expect(waiters.size).toBe(0);
  });
});
