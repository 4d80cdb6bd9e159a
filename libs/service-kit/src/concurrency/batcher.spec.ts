import { Batcher } from './batcher';

/** A processor whose batches stay open until released, recording what each batch held. */
function controlledProcessor() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const process = (requests: number[]) => {
    batches.push(requests);
    return new Promise<string[]>((resolve) => releases.push(() => resolve(requests.map((r) => `r${r}`))));
  };
  return { batches, releases, process };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('puts the requests of one tick into one batch and answers each its own result', async () => {
    const p = controlledProcessor();
    const batcher = new Batcher(p.process);
    const answers = [1, 2, 3].map((n) => batcher.submit(n));
    await tick();
    expect(p.batches).toEqual([[1, 2, 3]]);
    p.releases[0]();
    await expect(Promise.all(answers)).resolves.toEqual(['r1', 'r2', 'r3']);
  });

  it('gathers requests that arrive while batches are in flight into the next batch', async () => {
    const p = controlledProcessor();
    const batcher = new Batcher(p.process, { maxInFlight: 2 });
    const first = batcher.submit(1);
    await tick();
    const second = batcher.submit(2);
    await tick();
    const later = [3, 4, 5].map((n) => batcher.submit(n));
    await tick();
    expect(p.batches).toEqual([[1], [2]]);
    expect(batcher.waiting).toBe(3);
    p.releases[0]();
    await first;
    await tick();
    expect(p.batches).toEqual([[1], [2], [3, 4, 5]]);
    p.releases[1]();
    p.releases[2]();
    await expect(Promise.all([second, ...later])).resolves.toEqual(['r2', 'r3', 'r4', 'r5']);
  });

  it('caps a batch by weight, but runs a request heavier than the cap alone', async () => {
    const p = controlledProcessor();
    const batcher = new Batcher(p.process, { maxInFlight: 5, maxWeight: 10, weigh: (n) => n });
    const answers = [4, 5, 2, 20, 3].map((n) => batcher.submit(n));
    await tick();
    expect(p.batches).toEqual([[4, 5], [2], [20], [3]]);
    p.releases.forEach((release) => release());
    await expect(Promise.all(answers)).resolves.toEqual(['r4', 'r5', 'r2', 'r20', 'r3']);
  });

  it("gives every request the batch's error, or with isolateFailures only the failing request", async () => {
    const failOn7 = async (requests: number[]) => {
      if (requests.includes(7)) throw new Error('seven');
      return requests.map((r) => r * 10);
    };
    const together = new Batcher(failOn7);
    const a = [1, 7].map((n) => together.submit(n).catch((e: Error) => e.message));
    await expect(Promise.all(a)).resolves.toEqual(['seven', 'seven']);

    const isolated = new Batcher(failOn7, { isolateFailures: true });
    const b = [1, 7, 3].map((n) => isolated.submit(n).catch((e: Error) => e.message));
    await expect(Promise.all(b)).resolves.toEqual([10, 'seven', 30]);
  });

  it('refuses a processor that answers the wrong number of results', async () => {
    const batcher = new Batcher(async (requests: number[]) => requests.slice(1));
    await expect(Promise.all([batcher.submit(1), batcher.submit(2)])).rejects.toThrow('answered 1 results for 2 requests');
  });
});
