import { assertPatched } from '../package-patches';

/**
 * Our patch of grpc-js 1.14.7: `patches/@grpc+grpc-js+1.14.7+001+connect-timeout.patch` (see
 * package-patches.ts), the time limit on a connection attempt that PROMPT_RECONNECTION sets.
 * Without it grpc-js ignores the option, and a channel finds a copy whose network came back only
 * when the kernel next resends its SYN.
 */
export const GRPC_JS_PATCHES = [{ name: 'connect-timeout', module: '@grpc/grpc-js/build/src/transport' }] as const;

/** Throws, naming what is missing and how to apply it, unless grpc-js has every patch. */
export function assertGrpcJsPatched(load?: (id: string) => unknown): void {
  assertPatched('@grpc/grpc-js', 'patches/@grpc+grpc-js+1.14.7+*.patch', GRPC_JS_PATCHES, load);
}
