import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { asyncResourceBindLean } from './async-resource-bind-fix';

describe('AsyncResource#bind without the deprecated accessor', () => {
  const als = new AsyncLocalStorage<string>();

  it('is installed', () => {
    expect(asyncResourceBindLean).toBe(true);
    const bound = new AsyncResource('test').bind(() => 1);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toBeUndefined();
  });

  it("runs the function in the resource's async context, wherever it is called from", async () => {
    const bound = als.run('at bind', () => new AsyncResource('test').bind(() => als.getStore()));
    expect(als.run('at call', bound)).toBe('at bind');
    expect(await als.run('later', () => new Promise((resolve) => setImmediate(() => resolve(bound()))))).toBe('at bind');
    const staticBound = als.run('static', () => AsyncResource.bind(() => als.getStore()));
    expect(staticBound()).toBe('static');
  });

  it("passes arguments and the result through, with the caller's this or the bound thisArg, and keeps fn's length", () => {
    function report(this: unknown, a: number, b: number) {
      return { self: this, sum: a + b };
    }
    const resource = new AsyncResource('test');
    // Node's typings leave out bind's thisArg.
    const bind = resource.bind.bind(resource) as (fn: typeof report, thisArg?: unknown) => typeof report;
    const free = bind(report);
    const holder = { free };
    expect(holder.free(2, 3)).toEqual({ self: holder, sum: 5 });
    const thisArg = { name: 'bound' };
    expect(bind(report, thisArg)(1, 1)).toEqual({ self: thisArg, sum: 2 });
    expect(free.length).toBe(2);
    expect(bind(report, thisArg).length).toBe(2);
  });

  it('refuses a value that is not a function', () => {
    expect(() => new AsyncResource('test').bind('nope' as never)).toThrow(TypeError);
  });
});
