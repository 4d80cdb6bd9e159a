import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');
const MAX_LINES = 300;

/**
 * Test code, not production code: specs and their helpers, and the event store's contract suite
 * (run by each adapter's spec).
 */
const TEST_CODE = [/\.spec\.ts$/, /\.e2e\.ts$/, /\.test-support\.ts$/, /(^|\/)testing(\.ts$|\/)/, /^libs\/event-store\/src\/event-store\.contract\.ts$/];

/**
 * Generated: the gRPC types written by `proto-loader-gen-types` from the `.proto` files
 * (`libs/contracts/src/grpc/generated/`), never edited by hand, so never read as the code's prose.
 */
const GENERATED = /^libs\/contracts\/src\/grpc\/generated\//;

/** The TypeScript of the apps and the libs (tracked or new, not ignored). */
const sources = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'apps', 'libs'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path.endsWith('.ts') && existsSync(join(REPO, path)));

const production = sources.filter((path) => !TEST_CODE.some((test) => test.test(path)) && !GENERATED.test(path));

const linesOf = (path: string) => readFileSync(join(REPO, path), 'utf8').split('\n').length - 1;

/** One idea per file: a production file a reader can hold in their head (split it by concept when it grows). */
describe('production files', () => {
  it('are found (apps and libs)', () => {
    expect(production.length).toBeGreaterThan(300);
    expect(production).toContain('libs/event-store/src/esdb/esdb-event-store.ts');
  });

  it(`are at most ${MAX_LINES} lines long`, () => {
    const over = production.map((path) => ({ path, lines: linesOf(path) })).filter(({ lines }) => lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
