import { PartitionOffsets } from './partition-offsets';

describe('PartitionOffsets', () => {
  it('commits only past requests that have all been answered, whatever order they finish in', () => {
    const p = new PartitionOffsets();
    expect(p.toCommit()).toBeNull();
    for (const o of ['10', '11', '12']) expect(p.begin(o)).toBe(true);
    p.succeeded('12');
    expect(p.toCommit()).toBe('10'); // 10 and 11 still running: nothing new is safe
    p.markCommitted('10');
    expect(p.toCommit()).toBeNull();
    p.succeeded('10');
    expect(p.toCommit()).toBe('11');
    p.succeeded('11');
    expect(p.toCommit()).toBe('13');
  });

  it('skips a request delivered again while it runs or after it was answered, and hands a failed one over again', () => {
    const p = new PartitionOffsets();
    p.begin('0');
    p.begin('1');
    p.begin('2');
    p.failed('0');
    p.succeeded('1');
    expect(p.toCommit()).toBe('0'); // the failed request holds the position back
    // Delivered again from the failed request on (a seek to it):
    expect(p.begin('0')).toBe(true);
    expect(p.begin('1')).toBe(false); // answered
    expect(p.begin('2')).toBe(false); // still running
    expect(p.begin('3')).toBe(true); // new
    p.succeeded('0');
    expect(p.toCommit()).toBe('2');
    p.succeeded('2');
    p.succeeded('3');
    expect(p.toCommit()).toBe('4');
    // A rebalance delivers from an older committed position: all of it was answered here.
    expect(p.begin('1')).toBe(false);
  });

  it('moves past offsets that were never handed over (a gap in the log)', () => {
    const p = new PartitionOffsets();
    p.begin('5');
    p.begin('9');
    p.succeeded('5');
    expect(p.toCommit()).toBe('9');
    p.succeeded('9');
    expect(p.toCommit()).toBe('10');
  });

  it('compares offsets as 64-bit integers, not as text', () => {
    const p = new PartitionOffsets();
    p.begin('9');
    p.begin('10');
    p.succeeded('9');
    p.succeeded('10');
    expect(p.toCommit()).toBe('11');
    p.begin('9007199254740993'); // beyond 2^53
    p.succeeded('9007199254740993');
    expect(p.toCommit()).toBe('9007199254740994');
  });
});
