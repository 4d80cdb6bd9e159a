/**
 * What a test calls for a tool built from Go source: the binary's path, once built. `npm test`
 * starts the builds in the background when it starts; a test that needs one waits for that build
 * alone (saying so in one line), or builds it itself when nobody is (a Jest run outside the
 * runner). A failed build fails the tests that need the tool, with the build's last lines.
 */
import { buildGoTool } from './go-tool-build';
import { GoToolFiles } from './go-tool-cache';
import { goTool, type GoToolName } from './go-tools';
import { recordWait } from './test-waits';

/** A hook or test that calls builtTool waits at most this long: a first build on a new machine. */
export const TOOL_BUILD_TIMEOUT_MS = 30 * 60_000;

export async function builtTool(name: GoToolName): Promise<string> {
  const tool = goTool(name);
  const files = new GoToolFiles(tool);
  if (files.isBuilt()) return files.binary;
  const t0 = Date.now();
  process.stderr.write(`[tools] waiting for ${tool.name} ${tool.version} to build (log: ${files.log})\n`);
  const outcome = await buildGoTool(tool, { niceness: 0 });
  if (outcome.state === 'failed') throw new Error(outcome.report);
  const waited = (Date.now() - t0) / 1000;
  process.stderr.write(`[tools] ${tool.name} ${tool.version} ready after ${waited.toFixed(1)} s of waiting\n`);
  // The runner's closing summary says how long tests waited for each tool.
  recordWait(process.env.TAILSYNC_TEST_DATA, { who: 'tests', what: tool.name, startedAt: t0, seconds: waited });
  return outcome.path;
}
