/**
 * `npm run generate:kubernetes-schemas`: writes the JSON Schemas kubeconform validates the Helm
 * chart against (tools/deploy/helm-chart.spec.ts), for the kinds the chart renders and no other.
 * Kubernetes' own come from the OpenAPI v3 documents of its release (module k8s.io/kubernetes,
 * api/openapi-spec/v3/); ServiceMonitor and PrometheusRule from the CRDs the prometheus-operator
 * module carries (example/prometheus-operator-crd/), Certificate from cert-manager's (deploy/crds/).
 * The modules come from the Go module proxy (`go mod download`), once per machine; the tests read
 * only the committed files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findGo } from '../ci/go';
import { kindSchema, type OpenApiSchema, schemaFileName, strictJsonSchema } from './json-schema-from-openapi';
import { CERT_MANAGER_VERSION, CHART_KINDS, KUBERNETES_SCHEMAS, KUBERNETES_VERSION, PROMETHEUS_OPERATOR_VERSION } from './kubernetes-schemas';

/** The folder of a Go module, downloaded into the module cache when missing. */
function moduleDir(module: string): string {
  const go = findGo();
  if (!go) throw new Error('Go is needed to download the modules the schemas come from (https://go.dev/dl)');
  const out = execFileSync(go, ['mod', 'download', '-json', module], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

/** Every component schema of the release's OpenAPI v3 documents, by name. */
function kubernetesComponents(): Record<string, OpenApiSchema> {
  const dir = join(moduleDir(`k8s.io/kubernetes@v${KUBERNETES_VERSION}`), 'api', 'openapi-spec', 'v3');
  const all: Record<string, OpenApiSchema> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const document = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { components?: { schemas?: Record<string, OpenApiSchema> } };
    Object.assign(all, document.components?.schemas ?? {});
  }
  return all;
}

function main(): void {
  const components = kubernetesComponents();
  const resolve = (ref: string) => {
    const schema = components[ref.replace('#/components/schemas/', '')];
    if (!schema) throw new Error(`no schema ${ref} in Kubernetes ${KUBERNETES_VERSION}'s OpenAPI documents`);
    return schema;
  };
  // The CRD files of the kinds that are not Kubernetes' own, by API group.
  const crdFiles: Record<string, (kind: string) => string> = {
    'monitoring.coreos.com': (kind) =>
      join(moduleDir(`github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION}`), 'example', 'prometheus-operator-crd', `monitoring.coreos.com_${kind.toLowerCase()}s.yaml`),
    'cert-manager.io': (kind) => join(moduleDir(`github.com/cert-manager/cert-manager@${CERT_MANAGER_VERSION}`), 'deploy', 'crds', `cert-manager.io_${kind.toLowerCase()}s.yaml`),
  };
  rmSync(KUBERNETES_SCHEMAS, { recursive: true, force: true });
  mkdirSync(KUBERNETES_SCHEMAS, { recursive: true });
  for (const { apiVersion, kind } of CHART_KINDS) {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    let schema: OpenApiSchema;
    if (crdFiles[group]) {
      const crd = parse(readFileSync(crdFiles[group](kind), 'utf8')) as {
        spec: { versions: { name: string; schema: { openAPIV3Schema: OpenApiSchema } }[] };
      };
      const openApi = crd.spec.versions.find((v) => v.name === version)?.schema.openAPIV3Schema;
      if (!openApi) throw new Error(`the ${kind} CRD has no version ${version}`);
      // A CRD's schema leaves metadata open; an object's metadata is Kubernetes' ObjectMeta all the same.
      const properties = { ...(openApi.properties as Record<string, OpenApiSchema>), metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } };
      schema = strictJsonSchema({ ...openApi, properties }, resolve);
    } else {
      const name = Object.keys(components).find((key) =>
        ((components[key]['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined) ?? []).some(
          (gvk) => gvk.group === group && gvk.version === version && gvk.kind === kind,
        ),
      );
      if (!name) throw new Error(`no ${apiVersion} ${kind} in Kubernetes ${KUBERNETES_VERSION}'s OpenAPI documents`);
      schema = strictJsonSchema(components[name], resolve);
    }
    const file = join(KUBERNETES_SCHEMAS, schemaFileName(apiVersion, kind));
    writeFileSync(file, `${JSON.stringify(kindSchema(schema, apiVersion, kind))}\n`);
    process.stdout.write(`${file}\n`);
  }
}

main();
