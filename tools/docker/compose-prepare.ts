/**
 * `npm run test:compose:prepare`: the compose test's preparations alone (engine, Compose plugin,
 * base images), then the engine stops again if this started it. `.ci/run` runs it at a low
 * priority beside `npm test`.
 */
import { prepareCompose } from './compose-preparation';
import { ensureDockerEngine } from './docker-engine';

const log = (line: string) => process.stdout.write(`[compose-prepare] ${line}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const engine = await ensureDockerEngine(log);
  try {
    await prepareCompose(log);
  } finally {
    await engine.stop();
  }
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[compose-prepare] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
