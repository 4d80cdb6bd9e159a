/**
 * `npm run lint:workflows`: actionlint (a Go module, pinned) over .github/workflows, built once per
 * machine into the tool cache every checkout shares (tools/test/go-tool-cache.ts), with the other
 * tools' flags and Go caches. Needs Go; prints actionlint's findings and exits non-zero on any.
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../stack/infrastructure';
import { buildGoTool } from '../test/go-tool-build';
import { ACTIONLINT } from '../test/go-tools';

async function main(): Promise<number> {
  const built = await buildGoTool(ACTIONLINT, { niceness: 0 });
  if (built.state === 'failed') {
    process.stderr.write(`${built.report}\n`);
    return 1;
  }
  if (built.state === 'built') process.stdout.write(`actionlint ${ACTIONLINT.version} built in ${built.seconds.toFixed(1)} s, ${built.cpuSeconds.toFixed(1)} CPU-seconds\n`);
  const lint = spawnSync(built.path, ['-color=false'], { cwd: REPO_ROOT, stdio: 'inherit' });
  process.stdout.write(lint.status === 0 ? 'actionlint: .github/workflows clean\n' : '');
  return lint.status ?? 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`lint:workflows failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
