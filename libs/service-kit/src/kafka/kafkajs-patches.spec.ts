/**
 * The start-up check of the kafkajs patches: it passes on this install (patched by `npm ci`), names
 * each patch a kafkajs lacks, and lists every patch file under patches/.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertKafkajsPatched, KAFKAJS_PATCHES, missingKafkajsPatches } from './kafkajs-patches';

const PATCHES_DIR = join(__dirname, '../../../../patches');

describe('kafkajs patches', () => {
  it('are all applied to the installed kafkajs', () => {
    expect(missingKafkajsPatches()).toEqual([]);
    expect(() => assertKafkajsPatched()).not.toThrow();
  });

  it('are each a patch file of the pinned kafkajs, in order, and nothing else patches kafkajs', () => {
    const files = readdirSync(PATCHES_DIR).filter((file) => file.startsWith('kafkajs+'));
    expect(files).toEqual(KAFKAJS_PATCHES.map(({ name }, i) => `kafkajs+${require('kafkajs/package.json').version}+${String(i + 1).padStart(3, '0')}+${name}.patch`));
  });

  it('stop the start with a message naming each missing patch and how to apply it', () => {
    const unpatched = (id: string) => (id.endsWith('groupMessagesPerPartition') ? require(id) : { tailsyncPatch: undefined });
    expect(missingKafkajsPatches(unpatched)).toEqual(['idle-timer', 'record-encoding', 'group-authorization', 'produce-retry', 'coordinator-failover', 'request-timeout', 'fetch-retry']);
    expect(() => assertKafkajsPatched(unpatched)).toThrow(
      'kafkajs lacks our patches idle-timer, record-encoding, group-authorization, produce-retry, coordinator-failover, request-timeout, fetch-retry (patches/kafkajs+2.2.4+*.patch): install with `npm ci`, whose postinstall applies them (patch-package)',
    );
  });
});
