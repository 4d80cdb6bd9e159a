/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * Points the require cache's entry for `path` (a resolved path) at `exports`, loading the original
 * first, so whatever requires `path` afterwards gets `exports`; false if it could not. Modules
 * that loaded `path` before keep what they got: the kafkajs fixes check that first.
 */
export function replaceModule(path: string, exports: unknown): boolean {
  require(path);
  const cached = require.cache[path];
  if (!cached) return false;
  cached.exports = exports;
  return true;
}
