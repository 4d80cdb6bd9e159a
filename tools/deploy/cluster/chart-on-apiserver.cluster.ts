/**
 * The Helm chart installed and upgraded with `helm` on a real kube-apiserver (Kubernetes 1.37.2,
 * with etcd; local-cluster.ts), as an operator runs them: every value set rendered against the
 * cluster and each object sent in a server-side dry run, where the API server validates, defaults
 * and admits it (more than kubeconform's schemas check: a port name's length, say); then the defaults
 * installed for real and upgraded, and what the chart makes itself (the service network's CA and
 * certificates, the generated admin token, JWT key and sealing key) read back before and after:
 * an upgrade keeps them (Helm's `lookup`), and an app certificate deleted by hand is issued again
 * by the kept CA. The CRDs of prometheus-operator and cert-manager are installed first, from the
 * modules the schemas come from (kubernetes-schemas.ts), so their kinds are checked too. No pod
 * runs: the cluster has no scheduler and no kubelet.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { builtTool, TOOL_BUILD_TIMEOUT_MS } from '../../test/built-tools';
import { type Values, VALUE_SETS } from '../chart-value-sets';
import { crdFile, CRD_KINDS } from '../crd-files';
import { KUBERNETES_VERSION } from '../kubernetes-schemas';
import { type LocalCluster, startLocalCluster } from './local-cluster';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const CHART = join(REPO_ROOT, 'deploy', 'helm', 'tailsync');
const work = mkdtempSync(join(tmpdir(), 'chart-on-apiserver-'));

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [field: string]: any };

let helm: string;
let cluster: LocalCluster;

beforeAll(async () => {
  helm = await builtTool('helm');
  cluster = await startLocalCluster(join(REPO_ROOT, '.data', 'kubernetes', 'cluster'));
  for (const kind of CRD_KINDS) {
    const crd = parse(readFileSync(crdFile(kind), 'utf8')) as K8sObject;
    const created = await cluster.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    expect({ kind, status: created.status }).toEqual({ kind, status: 201 });
  }
  // A CRD serves its kind once it is Established.
  for (const kind of CRD_KINDS) {
    const name = (parse(readFileSync(crdFile(kind), 'utf8')) as K8sObject).metadata.name;
    await until(async () => {
      const { body } = await cluster.api('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      return (body.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
    });
  }
}, TOOL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  await cluster?.stop();
});

async function until(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function helmRun(args: string[]) {
  const result = spawnSync(helm, [...args, '--kubeconfig', cluster.kubeconfig], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: work } });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, stdout: result.stdout };
}

function valuesFile(values: Values): string {
  const file = join(work, `values-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(values));
  return file;
}

async function createNamespace(name: string): Promise<void> {
  const { status } = await cluster.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  expect({ name, status }).toEqual({ name, status: 201 });
}

/** The objects of a Helm manifest (`helm get manifest`, or a dry run's). */
function objectsOf(manifest: string): K8sObject[] {
  return parseAllDocuments(manifest)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null && typeof o.kind === 'string');
}

/** The API path of a namespaced kind's objects. */
function collectionOf(o: K8sObject, namespace: string): string {
  const plural = o.kind.toLowerCase().replace(/y$/, 'ie') + 's';
  const base = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
  return `${base}/namespaces/${namespace}/${plural}`;
}

const pathOf = (o: K8sObject, namespace: string) => `${collectionOf(o, namespace)}/${o.metadata.name}`;

async function secretData(namespace: string, name: string): Promise<Record<string, string>> {
  const { status, body } = await cluster.api('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`);
  expect({ name, status }).toEqual({ name, status: 200 });
  return body.data as Record<string, string>;
}

const pemOf = (data: Record<string, string>, key: string) => Buffer.from(data[key], 'base64').toString('utf8');

describe(`the Helm chart on a real kube-apiserver (Kubernetes ${KUBERNETES_VERSION})`, () => {
  it.each(Object.keys(VALUE_SETS).map((name, i) => [name, i] as const))('accepts every object of "%s" in a server-side dry run', async (name, i) => {
    const namespace = `dry-run-${i}`;
    await createNamespace(namespace);
    // Rendered without a cluster, told what the cluster serves (its CRDs: `auto` renders their kinds).
    const served = CRD_KINDS.flatMap(({ apiVersion, kind }) => ['--api-versions', `${apiVersion}/${kind}`]);
    const rendered = helmRun(['template', 'tailsync', CHART, '--namespace', namespace, '--kube-version', KUBERNETES_VERSION, ...served, '--values', valuesFile(VALUE_SETS[name])]);
    expect(rendered.status).toBe(0);
    // Helm's --dry-run=server renders against the cluster (lookup, its API versions) but sends no object.
    const install = helmRun(['install', 'tailsync', CHART, '--namespace', namespace, '--values', valuesFile(VALUE_SETS[name]), '--dry-run=server']);
    expect({ status: install.status, output: install.status === 0 ? '' : install.output }).toEqual({ status: 0, output: '' });
    const objects = objectsOf(install.stdout);
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    expect(objects.map(key).sort()).toEqual(objectsOf(rendered.stdout).map(key).sort());
    // So each object goes to the API server as `kubectl apply --dry-run=server` sends it: validated,
    // defaulted and admitted, an unknown field refused (Strict), nothing stored.
    for (const o of objects) {
      const { status, body } = await cluster.api('POST', `${collectionOf(o, namespace)}?dryRun=All&fieldValidation=Strict`, o);
      expect({ object: key(o), status, message: status === 201 ? '' : body.message }).toEqual({ object: key(o), status: 201, message: '' });
    }
    expect((await cluster.api('GET', `/apis/apps/v1/namespaces/${namespace}/deployments`)).body.items).toEqual([]);
  });

  describe('installed with the defaults, then upgraded', () => {
    const namespace = 'tailsync';
    const release = 'tailsync';
    const values = VALUE_SETS.defaults;
    let installed: K8sObject[];
    let secretsBefore: Record<string, Record<string, string>>;
    const secretNames = () => installed.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name).sort();
    const readSecrets = async () => Object.fromEntries(await Promise.all(secretNames().map(async (name) => [name, await secretData(namespace, name)] as const)));
    const caSecret = () => secretNames().find((name) => name.endsWith('-grpc-ca')) as string;
    const appSecret = (app: string) => secretNames().find((name) => name.endsWith(`-${app}-grpc-tls`)) as string;

    it('installs: every object stored as rendered, the certificates issued by the chart\'s CA to each app\'s name', async () => {
      await createNamespace(namespace);
      const install = helmRun(['install', release, CHART, '--namespace', namespace, '--values', valuesFile(values)]);
      expect({ status: install.status, output: install.status === 0 ? '' : install.output }).toEqual({ status: 0, output: '' });
      installed = objectsOf(helmRun(['get', 'manifest', release, '--namespace', namespace]).stdout);
      expect(installed.map((o) => o.kind).sort()).toEqual(expect.arrayContaining(['Deployment', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'PodDisruptionBudget', 'Secret', 'Service']));
      for (const o of installed) {
        const { status, body } = await cluster.api('GET', pathOf(o, namespace));
        expect({ object: `${o.kind}/${o.metadata.name}`, status, uid: typeof body.metadata?.uid }).toEqual({ object: `${o.kind}/${o.metadata.name}`, status: 200, uid: 'string' });
      }
      // The services' Services are headless (the gateway's dns:/// target sees every pod); the gateway's has an address.
      const services = installed.filter((o) => o.kind === 'Service');
      for (const service of services) {
        const { body } = await cluster.api('GET', pathOf(service, namespace));
        const headless = body.spec.ports.some((p: { name: string }) => p.name === 'grpc');
        expect({ service: service.metadata.name, clusterIP: headless ? body.spec.clusterIP : 'assigned' }).toEqual({ service: service.metadata.name, clusterIP: headless ? 'None' : 'assigned' });
        if (!headless) expect(body.spec.clusterIP).toMatch(/^10\.96\./);
      }

      secretsBefore = await readSecrets();
      const ca = new X509Certificate(pemOf(secretsBefore[caSecret()], 'tls.crt'));
      for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
        const data = secretsBefore[appSecret(app)];
        const cert = new X509Certificate(pemOf(data, 'tls.crt'));
        expect({ app, issuedByCa: cert.verify(ca.publicKey), subject: cert.subject, caFile: pemOf(data, 'ca.crt') }).toEqual({ app, issuedByCa: true, subject: `CN=${app}`, caFile: ca.toString() });
      }
      const generated = secretsBefore[secretNames().find((name) => name.endsWith('-secrets')) as string];
      // The sealing key as the dispatcher reads its file: base64 of 32 random bytes.
      expect(Buffer.from(Buffer.from(generated.webhook_secret_key, 'base64').toString('utf8'), 'base64')).toHaveLength(32);
    });

    it('upgrades: a changed value applied, every certificate and generated secret kept as it was', async () => {
      const upgrade = helmRun(['upgrade', release, CHART, '--namespace', namespace, '--values', valuesFile(values), '--set', 'tailSync.replicas=3']);
      expect({ status: upgrade.status, output: upgrade.status === 0 ? '' : upgrade.output }).toEqual({ status: 0, output: '' });
      const tailSync = installed.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-tail-sync')) as K8sObject;
      const { body } = await cluster.api('GET', pathOf(tailSync, namespace));
      expect({ replicas: body.spec.replicas, generation: body.metadata.generation }).toEqual({ replicas: 3, generation: 2 });
      expect(await readSecrets()).toEqual(secretsBefore);
    });

    it('issues a deleted app certificate again on the next upgrade, from the kept CA, and keeps the others', async () => {
      const gateway = appSecret('gateway');
      expect((await cluster.api('DELETE', `/api/v1/namespaces/${namespace}/secrets/${gateway}`)).status).toBe(200);
      const upgrade = helmRun(['upgrade', release, CHART, '--namespace', namespace, '--values', valuesFile(values)]);
      expect({ status: upgrade.status, output: upgrade.status === 0 ? '' : upgrade.output }).toEqual({ status: 0, output: '' });
      const after = await readSecrets();
      const ca = new X509Certificate(pemOf(after[caSecret()], 'tls.crt'));
      const reissued = new X509Certificate(pemOf(after[gateway], 'tls.crt'));
      expect({ subject: reissued.subject, issuedByKeptCa: reissued.verify(ca.publicKey), newKey: after[gateway]['tls.key'] !== secretsBefore[gateway]['tls.key'] }).toEqual({
        subject: 'CN=gateway', issuedByKeptCa: true, newKey: true,
      });
      const { [gateway]: _reissued, ...others } = after;
      const { [gateway]: _before, ...othersBefore } = secretsBefore;
      expect(others).toEqual(othersBefore);
    });
  });
});
