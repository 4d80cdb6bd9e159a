import { CommittableOffsets } from './committable-offsets';

describe('CommittableOffsets: a position is committable once its batch and every earlier one are stored', () => {
  const deferred = () => {
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
  const tick = () => new Promise((r) => setImmediate(r));

  it('waits for earlier batches of the partition, not for other partitions', async () => {
    const offsets = new CommittableOffsets('t', () => undefined);
    const [first, second, other] = [deferred(), deferred(), deferred()];
    offsets.after(0, '11', first.promise);
    offsets.after(0, '12', second.promise);
    offsets.after(1, '5', other.promise);
    second.resolve();
    other.resolve();
    await tick();
    expect(offsets.due()).toEqual([{ topic: 't', partition: 1, offset: '5' }]);
    first.resolve();
    await tick();
    expect(offsets.due()).toEqual([{ topic: 't', partition: 1, offset: '5' }, { topic: 't', partition: 0, offset: '12' }]);
    offsets.committed([{ topic: 't', partition: 0, offset: '12' }]);
    expect(offsets.due()).toEqual([{ topic: 't', partition: 1, offset: '5' }]);
  });

  it('a batch that failed to be stored holds its partition back for good', async () => {
    const offsets = new CommittableOffsets('t', () => undefined);
    const failed = deferred();
    offsets.after(0, '11', failed.promise);
    offsets.after(0, '12', Promise.resolve());
    failed.reject(new Error('lost'));
    await tick();
    expect(offsets.due()).toEqual([]);
  });

  it('after a new assignment, storing under way moves no position and lost partitions are forgotten', async () => {
    const offsets = new CommittableOffsets('t', () => undefined);
    offsets.after(0, '3', Promise.resolve());
    offsets.after(1, '4', Promise.resolve());
    await tick();
    const late = deferred();
    offsets.after(0, '9', late.promise);
    offsets.reassigned(new Set([0]));
    late.resolve();
    await tick();
    expect(offsets.due()).toEqual([{ topic: 't', partition: 0, offset: '3' }]);
  });
});
