import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROTO_ROOT, typeGeneratorArgs } from './proto-files';

/** Where the committed types live; `npm run generate:grpc` rewrites them, a spec fails when they drift. */
export const GENERATED_DIR = join(__dirname, 'generated');

/**
 * Runs `proto-loader-gen-types` into `outDir`. The tool writes each type's absolute source path in
 * a comment; it is made relative so the output is the same in every checkout.
 */
export function generateGrpcTypes(outDir: string): void {
  const tool = require.resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');
  const run = spawnSync(process.execPath, [tool, ...typeGeneratorArgs(outDir)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`proto-loader-gen-types failed: ${run.stderr || run.error?.message}`);
  for (const file of filesUnder(outDir)) {
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.split(`${PROTO_ROOT}/`).join('libs/contracts/proto/'));
  }
}

/** Every file below `dir`, as paths relative to it, sorted. */
export function generatedFiles(dir: string): string[] {
  return filesUnder(dir).map((file) => relative(dir, file)).sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
