/**
 * One way of wiring, in every app (docs/architecture.md, "How a module is wired"): a feature's
 * Nest module is the one `*.module.ts` file at the root of its folder (`src/<feature>/`), the
 * process's are in `src/` (`app.module.ts`), and providers are declared in those files only. So a
 * reader finds what a feature is made of, and from what, in one file beside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');

/** The apps' production TypeScript (tracked or new, not ignored). */
const production = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'apps'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter((path) => /^apps\/[^/]+\/src\/.*\.ts$/.test(path) && !/\.(spec|test-support)\.ts$/.test(path) && !/\/src\/testing\//.test(path))
  .filter((path) => existsSync(join(REPO, path)));

/** Declares a Nest module or providers. */
const WIRING = /@Module\(|\bproviders\s*:|\bprovide\s*:/;
/** Where a module file may be: in `src/`, or at the root of one of its folders. */
const MODULE_PLACE = /^apps\/[^/]+\/src\/([^/]+\/)?[^/]+\.module\.ts$/;

describe("the apps' Nest wiring", () => {
  const wiring = production.filter((path) => WIRING.test(readFileSync(join(REPO, path), 'utf8')));
  const modules = production.filter((path) => path.endsWith('.module.ts'));

  it('is found', () => {
    expect(wiring).toEqual(expect.arrayContaining(['apps/gateway/src/auth/auth.module.ts', 'apps/tail-sync/src/tails/tails.module.ts', 'apps/webhook-dispatcher/src/intake/intake.module.ts']));
  });

  it('declares modules and providers only in module files, in src/ or at the root of a feature folder', () => {
    expect(wiring.filter((path) => !MODULE_PLACE.test(path))).toEqual([]);
    expect(modules.filter((path) => !MODULE_PLACE.test(path))).toEqual([]);
  });

  it('has one module per feature folder', () => {
    const byFolder = new Map<string, string[]>();
    for (const path of modules) byFolder.set(dirname(path), [...(byFolder.get(dirname(path)) ?? []), path]);
    const crowded = [...byFolder].filter(([folder, files]) => !folder.endsWith('/src') && files.length > 1);
    expect(crowded).toEqual([]);
  });
});
