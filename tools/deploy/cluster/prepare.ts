/**
 * `npm run test:kubernetes:prepare`: what the chart's test on a kube-apiserver needs, made ahead
 * of it: Helm, etcd and kube-apiserver built from their Go modules into the machine-wide tool
 * cache (one at a time, each once per machine), and the CRDs' modules downloaded. `.ci/run` starts
 * it at a low priority when it starts, beside `npm test`; the kube-apiserver takes about 600
 * CPU-seconds to build from empty Go caches.
 */
import { buildGoTool } from '../../test/go-tool-build';
import { ETCD, HELM, KUBE_APISERVER } from '../../test/go-tools';
import { crdFile, CRD_KINDS } from '../crd-files';

const log = (line: string) => process.stdout.write(`[kubernetes-prepare] ${line}\n`);

async function main(): Promise<number> {
  const started = Date.now();
  let failed = 0;
  for (const tool of [HELM, ETCD, KUBE_APISERVER]) {
    const outcome = await buildGoTool(tool, { niceness: 0 });
    if (outcome.state === 'failed') {
      failed++;
      log(outcome.report);
    } else {
      log(`${tool.name} ${tool.version}: ${outcome.state === 'built' ? `built in ${outcome.seconds.toFixed(1)} s` : 'already built'}`);
    }
  }
  for (const kind of CRD_KINDS) log(`${kind.kind} CRD: ${crdFile(kind)}`);
  log(`${failed ? 'FAILED' : 'ready'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[kubernetes-prepare] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
