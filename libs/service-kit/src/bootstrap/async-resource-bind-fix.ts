import { AsyncResource } from 'node:async_hooks';

/**
 * Node 20's `AsyncResource#bind` gives every bound function an `asyncResource` accessor, deprecated
 * (DEP0172), built from two fresh `util.deprecate` wrappers on every call. Fastify binds one
 * function per request with a body (its content-type parser), and those wrappers were ~3 % of the
 * gateway's CPU under single `PUT /Tails`.
 *
 * This `bind` is Node's without the deprecated accessor (no dependency of ours reads it): the
 * bound function runs `fn` in the resource's async scope, with the caller's `this` or `thisArg`,
 * and has `fn`'s length.
 */
type Bind = (this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) => (...args: unknown[]) => unknown;
const proto = AsyncResource.prototype as unknown as { bind: Bind; __tailsyncLeanBind?: true };

if (!proto.__tailsyncLeanBind) {
  proto.bind = function bind(this: AsyncResource, fn, thisArg) {
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
  };
  proto.__tailsyncLeanBind = true;
}

/** true once the lean `bind` is installed (importing this module installs it). */
export const asyncResourceBindLean = proto.__tailsyncLeanBind === true;
