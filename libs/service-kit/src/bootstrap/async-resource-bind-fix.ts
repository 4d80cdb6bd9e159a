import { AsyncResource } from 'node:async_hooks';

/**
 * From Node 20 (DEP0172, nodejs/node#46432) `AsyncResource#bind` gives every bound function a
 * deprecated `asyncResource` accessor built from two fresh `util.deprecate` wrappers, and Fastify
 * binds a function per request with a body (cost in docs/performance.md). Where Node's own `bind`
 * does that, this replaces it with the same `bind` without the accessor, which nothing of ours reads.
 */
type Bind = (this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) => (...args: unknown[]) => unknown;
const proto = AsyncResource.prototype as unknown as { bind: Bind; __tailsyncLeanBind?: true };

/** Whether `bind` gives bound functions the deprecated `asyncResource` accessor (a getter). */
export function bindAddsDeprecatedAccessor(bind: Bind): boolean {
  const bound = bind.call(new AsyncResource('tailsync-probe'), () => undefined);
  return typeof Object.getOwnPropertyDescriptor(bound, 'asyncResource')?.get === 'function';
}

/** Node's `bind`, minus the accessor: `fn` runs in the resource's async scope, with the caller's `this` or `thisArg`, and keeps its length. */
function leanBind(this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) {
  if (typeof fn !== 'function') throw new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`);
  // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bound function has a `this` of its own
  const resource = this;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
  return bound;
}

if (!proto.__tailsyncLeanBind && bindAddsDeprecatedAccessor(proto.bind)) {
  proto.bind = leanBind;
  proto.__tailsyncLeanBind = true;
}

/** true when this Node needed the lean `bind` and has it (importing this module installs it). */
export const asyncResourceBindLean = proto.__tailsyncLeanBind === true;
