import { spawnSync } from 'node:child_process';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { asyncResourceBindLean, bindAddsDeprecatedAccessor } from './async-resource-bind-fix';

/** What this Node's own `bind` does, asked of a process that has not loaded the fix. */
function nodeBindHasDeprecatedAccessor(): boolean {
  const script = "const { AsyncResource } = require('node:async_hooks'); const d = Object.getOwnPropertyDescriptor(new AsyncResource('x').bind(() => 0), 'asyncResource'); process.stdout.write(String(typeof d?.get === 'function'))";
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return JSON.parse(child.stdout) as boolean;
}

describe('AsyncResource#bind without the deprecated accessor', () => {
  const als = new AsyncLocalStorage<string>();

  it(`is installed exactly when this Node's own bind adds the deprecated accessor (Node ${process.versions.node})`, () => {
    expect(asyncResourceBindLean).toBe(nodeBindHasDeprecatedAccessor());
    expect(Object.getOwnPropertyDescriptor(new AsyncResource('test').bind(() => 1), 'asyncResource')?.get).toBeUndefined();
  });

  it('tells a bind that adds the deprecated getter from one that does not', () => {
    const withGetter = function (this: AsyncResource, fn: () => unknown) {
      const bound = () => fn();
      return Object.defineProperty(bound, 'asyncResource', { get: () => this, enumerable: true, configurable: true });
    };
    const withValue = function (this: AsyncResource, fn: () => unknown) {
      return Object.defineProperty(() => fn(), 'asyncResource', { value: this, enumerable: true, configurable: true });
    };
    expect(bindAddsDeprecatedAccessor(withGetter)).toBe(true);
    expect(bindAddsDeprecatedAccessor(withValue)).toBe(false);
    expect(bindAddsDeprecatedAccessor(AsyncResource.prototype.bind as never)).toBe(false);
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
