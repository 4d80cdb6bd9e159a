import { BatchersByKey } from './batchers-by-key';

interface Read {
  key: string;
  n: number;
}

/** A processor whose batches stay open until released, recording what each batch held. */
function controlledProcessor() {
  const batches: Read[][] = [];
  const releases: (() => void)[] = [];
  const process = (requests: Read[]) => {
    batches.push(requests);
    return new Promise<string[]>((resolve) => releases.push(() => resolve(requests.map((r) => `${r.key}:${r.n}`))));
  };
  return { batches, releases, process };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const read = (key: string, n: number): Read => ({ key, n });

describe('BatchersByKey', () => {
  it('batches requests of one key together, never with another key\'s, and answers each its own result', async () => {
    const p = controlledProcessor();
    const batches = new BatchersByKey((r: Read) => r.key, p.process);
    const answers = [read('a', 1), read('b', 1), read('a', 2), read('b', 2), read('a', 3)].map((r) => batches.submit(r));
    await tick();
    expect(p.batches).toEqual([[read('a', 1), read('a', 2), read('a', 3)], [read('b', 1), read('b', 2)]]);
    p.releases.forEach((release) => release());
    await expect(Promise.all(answers)).resolves.toEqual(['a:1', 'b:1', 'a:2', 'b:2', 'a:3']);
  });

  it('sends a key\'s first request at once, alone, while another key\'s batch is in flight', async () => {
    const p = controlledProcessor();
    const batches = new BatchersByKey((r: Read) => r.key, p.process, { maxInFlight: 1 });
    void batches.submit(read('a', 1));
    await tick();
    const b = batches.submit(read('b', 1));
    await tick();
    expect(p.batches).toEqual([[read('a', 1)], [read('b', 1)]]);
    p.releases[1]();
    await expect(b).resolves.toBe('b:1');
  });

  it('gathers a key\'s requests that arrive while its batches are in flight into its next batch', async () => {
    const p = controlledProcessor();
    const batches = new BatchersByKey((r: Read) => r.key, p.process, { maxInFlight: 1 });
    const first = batches.submit(read('a', 1));
    await tick();
    const later = [2, 3, 4].map((n) => batches.submit(read('a', n)));
    await tick();
    expect(p.batches).toEqual([[read('a', 1)]]);
    p.releases[0]();
    await first;
    await tick();
    expect(p.batches[1]).toEqual([read('a', 2), read('a', 3), read('a', 4)]);
    p.releases[1]();
    await expect(Promise.all(later)).resolves.toEqual(['a:2', 'a:3', 'a:4']);
  });

  it('fails only the batch of the key whose processing failed', async () => {
    const batches = new BatchersByKey(
      (r: Read) => r.key,
      async (requests: Read[]) => {
        if (requests[0].key === 'bad') throw new Error('the service refused');
        return requests.map((r) => `${r.key}:${r.n}`);
      },
    );
    const [bad, good] = await Promise.allSettled([batches.submit(read('bad', 1)), batches.submit(read('good', 1))]);
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('the service refused') });
    expect(good).toEqual({ status: 'fulfilled', value: 'good:1' });
  });

  it('holds a key only while it has a request waiting or running', async () => {
    const p = controlledProcessor();
    const batches = new BatchersByKey((r: Read) => r.key, p.process);
    const answers = [batches.submit(read('a', 1)), batches.submit(read('b', 1))];
    expect(batches.keysInUse).toBe(2);
    await tick();
    p.releases[0]();
    await answers[0];
    expect(batches.keysInUse).toBe(1);
    p.releases[1]();
    await answers[1];
    expect(batches.keysInUse).toBe(0);
  });
});
