/**
 * `node tools/run.js tools/test/print-built-tool.ts jaeger`: prints the path of a tool built from
 * Go source (go-tools.ts), building it first when this machine has not (scripts such as
 * bench/with-jaeger.sh use it).
 */
import { builtTool } from './built-tools';
import { goTool } from './go-tools';

const name = process.argv[2] ?? '';
builtTool(goTool(name).name as Parameters<typeof builtTool>[0]).then(
  (path) => process.stdout.write(`${path}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
