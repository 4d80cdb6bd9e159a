/**
 * The app image carries a few of tools/' commands file by file (the Dockerfile's COPY lines, and
 * .dockerignore lets each through): a file they import that is left out breaks the command only in
 * the image (compose's kafka-init exited with "Cannot find module './acl-bindings'").
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
/** The tools/ files the image's COPY lines name one by one. */
const copied = [...dockerfile.matchAll(/^COPY (?!--)(.+) \S+$/gm)].flatMap((m) => m[1].split(' ')).filter((f) => f.startsWith('tools/') && f.endsWith('.ts'));
const letThrough = new Set(readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1)));

/** The repository files a tools/ file imports by a relative path. */
function relativeImports(file: string): string[] {
  const source = readFileSync(join(REPO_ROOT, file), 'utf8');
  return [...source.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => relative(REPO_ROOT, join(REPO_ROOT, dirname(file), `${m[1]}.ts`))).filter((f) => existsSync(join(REPO_ROOT, f)));
}

describe("the app image's tools/ files", () => {
  it('are named in the Dockerfile', () => {
    expect(copied).toContain('tools/kafka/kafka-principals.ts');
  });

  it.each(copied)('%s: every file it imports is copied into the image and let through .dockerignore', (file) => {
    expect(letThrough).toContain(file);
    const missing = relativeImports(file).filter((f) => f.startsWith('tools/') && !(copied.includes(f) && letThrough.has(f)));
    expect(missing).toEqual([]);
  });
});
