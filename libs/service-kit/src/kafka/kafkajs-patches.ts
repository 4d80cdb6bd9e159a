/**
 * Our patches of kafkajs 2.2.4 (unmaintained): `patches/kafkajs+2.2.4+NNN+<name>.patch`, applied by
 * patch-package in `npm ci`'s postinstall. Each patched module carries `tailsyncPatch = <name>`, so a
 * process can tell an install that skipped them (`--ignore-scripts`, a copied `node_modules`).
 */
export const KAFKAJS_PATCHES = [
  { name: 'idle-timer', module: 'kafkajs/src/network/requestQueue' },
  { name: 'grouping', module: 'kafkajs/src/producer/groupMessagesPerPartition' },
  { name: 'record-encoding', module: 'kafkajs/src/protocol/recordBatch/record/v0' },
  { name: 'group-authorization', module: 'kafkajs/src/cluster' },
  { name: 'produce-retry', module: 'kafkajs/src/producer/sendMessages' },
  { name: 'coordinator-failover', module: 'kafkajs/src/consumer/consumerGroup' },
  { name: 'request-timeout', module: 'kafkajs/src/broker' },
  { name: 'fetch-retry', module: 'kafkajs/src/consumer/runner' },
] as const;

/** The names of the patches the installed kafkajs lacks. */
export function missingKafkajsPatches(load: (id: string) => unknown = require): string[] {
  return KAFKAJS_PATCHES.filter(({ name, module }) => (load(module) as { tailsyncPatch?: unknown } | undefined)?.tailsyncPatch !== name).map(({ name }) => name);
}

/** Throws, naming what is missing and how to apply it, unless kafkajs has every patch. */
export function assertKafkajsPatched(load?: (id: string) => unknown): void {
  const missing = missingKafkajsPatches(load);
  if (missing.length === 0) return;
  throw new Error(`kafkajs lacks our patches ${missing.join(', ')} (patches/kafkajs+2.2.4+*.patch): install with \`npm ci\`, whose postinstall applies them (patch-package)`);
}
