/**
 * `npm run generate:kubernetes-schemas`: writes the JSON Schemas kubeconform validates the Helm
 * chart against (tools/deploy/helm-chart.spec.ts), for the kinds the chart renders and no other.
 * Kubernetes' own come from the OpenAPI v3 documents of its release (module k8s.io/kubernetes,
 * api/openapi-spec/v3/); ServiceMonitor and PrometheusRule from the CRDs the prometheus-operator
 * module carries (example/prometheus-operator-crd/), Certificate from cert-manager's (deploy/crds/).
 * The modules come from the Go module proxy (`go mod download`), once per machine; the tests read
 * only the committed files.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { crdFile, CRD_KINDS, moduleDir } from './crd-files';
import { kindSchema, type OpenApiSchema, schemaFileName, strictJsonSchema } from './json-schema-from-openapi';
import { CHART_KINDS, KUBERNETES_SCHEMAS, KUBERNETES_VERSION } from './kubernetes-schemas';

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
  rmSync(KUBERNETES_SCHEMAS, { recursive: true, force: true });
  mkdirSync(KUBERNETES_SCHEMAS, { recursive: true });
  for (const chartKind of CHART_KINDS) {
    const { apiVersion, kind } = chartKind;
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    let schema: OpenApiSchema;
    if ((CRD_KINDS as readonly unknown[]).includes(chartKind)) {
      const crd = parse(readFileSync(crdFile(chartKind), 'utf8')) as {
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
