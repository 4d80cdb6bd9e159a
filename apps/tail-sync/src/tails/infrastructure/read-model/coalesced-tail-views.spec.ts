import type { TailView } from '@tailsync/contracts';
import { CoalescedTailViews } from './coalesced-tail-views';
import type { TailsReadModel, TailViewKey } from './tails.read-model';

/** A read model that records each statement it would run and answers when the test says. */
class RecordingReadModel {
  readonly statements: string[][] = [];
  private readonly pending: { keys: readonly TailViewKey[]; answer: (views: (TailView | null)[]) => void; fail: (e: Error) => void }[] = [];

  getByMappedId(domain: string, source: string, mappedId: string): Promise<TailView | null> {
    return this.getManyByMappedId([{ domain, source, mappedId }]).then(([view]) => view);
  }

  getManyByMappedId(keys: readonly TailViewKey[]): Promise<(TailView | null)[]> {
    this.statements.push(keys.map((k) => k.mappedId));
    return new Promise((answer, fail) => this.pending.push({ keys, answer, fail }));
  }

  /** Answers the oldest statement still running: a view naming its key, or null for 'missing'. */
  finishOne(): void {
    const { keys, answer } = this.pending.shift()!;
    answer(keys.map((k) => (k.mappedId === 'missing' ? null : ({ mappedId: k.mappedId, tailNumber: k.domain } as TailView))));
  }

  failOne(error: Error): void {
    this.pending.shift()!.fail(error);
  }

  get running(): number {
    return this.pending.length;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('single-tail reads, coalesced under load', () => {
  let db: RecordingReadModel;
  let views: CoalescedTailViews;

  beforeEach(() => {
    db = new RecordingReadModel();
    views = new CoalescedTailViews(db as unknown as TailsReadModel, { lanes: 2, maxBatch: 3 });
  });

  it('runs a read that comes alone at once, as its own statement', async () => {
    const read = views.getByMappedId('acme', 'a', 'T-1');
    await tick();
    expect(db.statements).toEqual([['T-1']]);
    db.finishOne();
    expect(await read).toEqual({ mappedId: 'T-1', tailNumber: 'acme' });
  });

  it('answers the reads that wait while every lane is busy together, each with its own tail', async () => {
    const first = [views.getByMappedId('acme', 'a', 'T-1')];
    await tick();
    first.push(views.getByMappedId('acme', 'a', 'T-2'));
    await tick();
    expect(db.running).toBe(2);
    const waiting = [views.getByMappedId('acme', 'a', 'T-3'), views.getByMappedId('globex', 'a', 'T-3')];
    await tick();
    waiting.push(views.getByMappedId('acme', 'a', 'missing'));
    await tick();
    expect(db.statements).toEqual([['T-1'], ['T-2']]);
    db.finishOne();
    await tick();
    expect(db.statements).toEqual([['T-1'], ['T-2'], ['T-3', 'T-3', 'missing']]);
    db.finishOne();
    db.finishOne();
    expect(await Promise.all([...first, ...waiting])).toEqual([
      { mappedId: 'T-1', tailNumber: 'acme' },
      { mappedId: 'T-2', tailNumber: 'acme' },
      { mappedId: 'T-3', tailNumber: 'acme' },
      { mappedId: 'T-3', tailNumber: 'globex' },
      null,
    ]);
  });

  it('never puts more reads in one statement than its bound', async () => {
    const reads = [views.getByMappedId('acme', 'a', 'busy-1'), views.getByMappedId('acme', 'a', 'busy-2')];
    await tick();
    reads.push(...['W-1', 'W-2', 'W-3', 'W-4'].map((id) => views.getByMappedId('acme', 'a', id)));
    await tick();
    while (db.running) {
      db.finishOne();
      await tick();
    }
    await Promise.all(reads);
    expect(db.statements.map((s) => s.length).every((n) => n <= 3)).toBe(true);
    expect(db.statements.flat().sort()).toEqual(['W-1', 'W-2', 'W-3', 'W-4', 'busy-1', 'busy-2'].sort());
  });

  it('fails every read of a failed statement, and frees its lane for the next', async () => {
    const failing = views.getByMappedId('acme', 'a', 'T-1');
    await tick();
    db.failOne(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const after = views.getByMappedId('acme', 'a', 'T-2');
    await tick();
    expect(db.running).toBe(1);
    db.finishOne();
    expect(await after).toEqual({ mappedId: 'T-2', tailNumber: 'acme' });
  });
});
