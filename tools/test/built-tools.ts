// TEMPORARY stand-in for the lead's tools/test/built-tools.ts (background builds): the binaries
// built by hand with `GOBIN=/tmp/helper-bin go install …`. Deleted when main carries the real one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export async function builtTool(name: 'jaeger' | 'promtool' | 'helm' | 'kubeconform'): Promise<string> {
  const bin = join('/tmp/helper-bin', name);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build it with GOBIN=/tmp/helper-bin go install`);
  return bin;
}
