/**
 * The start-up check of the grpc-js patch: it passes on this install (patched by `npm ci`), names
 * a patch the installed grpc-js lacks, and lists every grpc-js patch file under patches/.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { missingPatches } from '../package-patches';
import { assertGrpcJsPatched, GRPC_JS_PATCHES } from './grpc-js-patches';

const PATCHES_DIR = join(__dirname, '../../../../patches');

describe('grpc-js patches', () => {
  it('are applied to the installed grpc-js', () => {
    expect(missingPatches(GRPC_JS_PATCHES)).toEqual([]);
    expect(() => assertGrpcJsPatched()).not.toThrow();
  });

  it('are each a patch file of the pinned grpc-js, in order, and nothing else patches grpc-js', () => {
    const files = readdirSync(PATCHES_DIR).filter((file) => file.startsWith('@grpc+grpc-js+'));
    expect(files).toEqual(GRPC_JS_PATCHES.map(({ name }, i) => `@grpc+grpc-js+${require('@grpc/grpc-js/package.json').version}+${String(i + 1).padStart(3, '0')}+${name}.patch`));
  });

  it('stop the start with a message naming the missing patch and how to apply it', () => {
    const unpatched = () => ({ tailsyncPatch: undefined });
    expect(() => assertGrpcJsPatched(unpatched)).toThrow(
      '@grpc/grpc-js lacks our patches connect-timeout (patches/@grpc+grpc-js+1.14.7+*.patch): install with `npm ci`, whose postinstall applies them (patch-package)',
    );
  });
});
