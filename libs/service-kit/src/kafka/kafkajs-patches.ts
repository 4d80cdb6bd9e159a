import { assertPatched, missingPatches } from '../package-patches';

/** Our patches of kafkajs 2.2.4 (unmaintained): `patches/kafkajs+2.2.4+NNN+<name>.patch` (see package-patches.ts). */
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
export function missingKafkajsPatches(load?: (id: string) => unknown): string[] {
  return missingPatches(KAFKAJS_PATCHES, load);
}

/** Throws, naming what is missing and how to apply it, unless kafkajs has every patch. */
export function assertKafkajsPatched(load?: (id: string) => unknown): void {
  assertPatched('kafkajs', 'patches/kafkajs+2.2.4+*.patch', KAFKAJS_PATCHES, load);
}
