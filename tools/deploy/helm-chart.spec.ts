/**
 * The Helm chart deploy/helm/tailsync, checked as an operator's tools and eyes would check it:
 * `helm lint --strict`; rendered (`helm template`) for several value sets, every object validated
 * by `kubeconform -strict` against the JSON Schemas of Kubernetes 1.37.2; and the rendered objects
 * read for what an operator relies on (who reaches which port, hardening, secrets, databases).
 *
 * The schemas are committed under tools/deploy/kubernetes-schemas/ (no network at test time):
 * `npm run generate:kubernetes-schemas` makes them from the Kubernetes release's own OpenAPI v3
 * documents (module k8s.io/kubernetes, api/openapi-spec/v3/) and, for ServiceMonitor and
 * PrometheusRule, from the CRDs of prometheus-operator v0.85.0 (its module's
 * example/prometheus-operator-crd/), both from the Go module proxy; run it again after changing
 * the versions or the kinds in tools/deploy/kubernetes-schemas.ts. Helm (v3.22.0) and
 * kubeconform (v0.8.0) are built from their Go modules by the test runner (builtTool).
 *
 * `helm template` has no cluster, so `lookup` finds nothing: that an upgrade keeps the generated
 * secrets and certificates is checked on a real kube-apiserver by tools/deploy/cluster.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { type GrpcTlsFiles, readmeSettings } from '@tailsync/service-kit';
import { builtTool, TOOL_BUILD_TIMEOUT_MS } from '../test/built-tools';
import { keys, type Values, VALUE_SETS } from './chart-value-sets';
import { KUBERNETES_SCHEMAS_ROOT, KUBERNETES_VERSION } from './kubernetes-schemas';
import { ALERT_RULES } from './monitored-metrics';
import { ping, withGrpcServer } from '../pki/grpc-tls-probe.test-support';

const REPO_ROOT = join(__dirname, '..', '..');
const CHART = join(REPO_ROOT, 'deploy', 'helm', 'tailsync');
const NAMESPACE = 'tailsync';

// The rendered objects, read loosely: each test names the fields it looks at.
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [field: string]: any };

const workDir = mkdtempSync(join(tmpdir(), 'helm-chart-'));
const valuesFile = (values: Values): string => {
  const file = join(workDir, `values-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(values));
  return file;
};

let helm: string;
let kubeconform: string;
// On a new machine the tools may still be building when this file starts: wait as long as a build.
beforeAll(async () => {
  [helm, kubeconform] = await Promise.all([builtTool('helm'), builtTool('kubeconform')]);
}, TOOL_BUILD_TIMEOUT_MS);

function run(bin: string, args: string[], input?: string) {
  const result = spawnSync(bin, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: workDir } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `helm template` of the chart: its YAML, or the failure's message. */
function template(values: Values, extra: string[] = []) {
  return run(helm, ['template', 'tailsync', CHART, '--namespace', NAMESPACE, '--kube-version', KUBERNETES_VERSION, '--values', valuesFile(values), ...extra]);
}

function render(values: Values, extra: string[] = []): { yaml: string; objects: K8sObject[] } {
  const out = template(values, extra);
  if (out.status !== 0) throw new Error(`helm template failed: ${out.stderr}`);
  const objects = parseAllDocuments(out.stdout)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
  return { yaml: out.stdout, objects };
}

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const envOf = (deployment: K8sObject): Record<string, { value?: string; valueFrom?: unknown }> =>
  Object.fromEntries((deployment.spec.template.spec.containers[0].env as { name: string; value?: string; valueFrom?: unknown }[]).map((e) => [e.name, e]));
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
const component = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'];

describe('the Helm chart deploy/helm/tailsync', () => {
  const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  it("is chart apiVersion v2 whose appVersion is the release (package.json, CHANGELOG.md's newest)", () => {
    const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { apiVersion: string; appVersion: string; version: string };
    expect(chart).toMatchObject({ apiVersion: 'v2', appVersion: release, version: release });
    const newest = /^## \[(\d+\.\d+\.\d+)\]/m.exec(readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8'))?.[1];
    expect(newest).toBe(release);
  });

  it.each(Object.keys(VALUE_SETS))('passes `helm lint --strict` with the value set "%s"', (name) => {
    const lint = run(helm, ['lint', '--strict', CHART, '--namespace', NAMESPACE, '--kube-version', KUBERNETES_VERSION, '--values', valuesFile(VALUE_SETS[name])]);
    expect({ status: lint.status, output: lint.stdout + lint.stderr }).toEqual({ status: 0, output: expect.stringContaining('0 chart(s) failed') });
  });

  it.each(Object.keys(VALUE_SETS))(`renders "%s" into objects kubeconform -strict finds valid for Kubernetes ${KUBERNETES_VERSION}`, (name) => {
    const { yaml, objects } = render(VALUE_SETS[name]);
    const check = run(kubeconform, ['-strict', '-summary', '-output', 'json', '-kubernetes-version', KUBERNETES_VERSION, '-schema-location', KUBERNETES_SCHEMAS_ROOT, '-'], yaml);
    const report = JSON.parse(check.stdout) as { resources: { kind: string; name: string; status: string; msg: string }[]; summary: { valid: number; invalid: number; errors: number; skipped: number } };
    expect(report.resources.filter((r) => r.status !== 'statusValid')).toEqual([]);
    expect(report.summary).toEqual({ valid: objects.length, invalid: 0, errors: 0, skipped: 0 });
    expect(check.status).toBe(0);
  });

  it('is checked by schemas that refuse a misspelt field and a missing schema (they are strict and local)', () => {
    const { objects } = render(VALUE_SETS.defaults);
    const deployment = structuredClone(ofKind(objects, 'Deployment')[0]);
    deployment.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem = true;
    const unknownKind = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    const input = [deployment, unknownKind].map((o) => JSON.stringify(o)).join('\n---\n');
    const check = run(kubeconform, ['-strict', '-summary', '-output', 'json', '-kubernetes-version', KUBERNETES_VERSION, '-schema-location', KUBERNETES_SCHEMAS_ROOT, '-'], input);
    const report = JSON.parse(check.stdout) as { summary: { valid: number; invalid: number; errors: number } };
    expect(report.summary).toMatchObject({ valid: 0, invalid: 1, errors: 1 });
    expect(check.status).not.toBe(0);
  });

  describe.each(Object.keys(VALUE_SETS))('rendered with "%s", read as an operator would', (name) => {
    const values = VALUE_SETS[name];
    let objects: K8sObject[];
    beforeAll(() => ({ objects } = render(values)));
    const deployments = () => ofKind(objects, 'Deployment');
    const byComponent = (kind: string, app: string) => ofKind(objects, kind).find((o) => component(o) === app);

    it('runs one Deployment per app, each container non-root, on a read-only root, without capabilities, under RuntimeDefault seccomp', () => {
      expect(deployments().map(component).sort()).toEqual(['gateway', 'tail-sync', 'webhook-dispatcher']);
      for (const d of deployments()) {
        const pod = d.spec.template.spec;
        for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
          const sc = { ...pod.securityContext, ...c.securityContext };
          expect({ app: component(d), runAsNonRoot: sc.runAsNonRoot, uid: sc.runAsUser > 0, readOnlyRoot: sc.readOnlyRootFilesystem, escalation: sc.allowPrivilegeEscalation, drop: sc.capabilities?.drop, add: sc.capabilities?.add, seccomp: sc.seccompProfile?.type }).toEqual({
            app: component(d), runAsNonRoot: true, uid: true, readOnlyRoot: true, escalation: false, drop: ['ALL'], add: undefined, seccomp: 'RuntimeDefault',
          });
          expect(c.resources.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
          expect(c.resources.limits.memory).toBeDefined();
        }
        expect(pod.automountServiceAccountToken).toBe(false);
      }
    });

    it('lets nothing but the gateway reach a gRPC port, and only the named namespace reach a management port', () => {
      const policies = ofKind(objects, 'NetworkPolicy');
      const gatewayLabels = byComponent('Deployment', 'gateway')!.spec.template.metadata.labels as Record<string, string>;
      const managementNamespace = (values.networkPolicy as { managementNamespace?: string } | undefined)?.managementNamespace ?? 'monitoring';
      for (const d of deployments()) {
        const labels = d.spec.template.metadata.labels as Record<string, string>;
        const ports = d.spec.template.spec.containers[0].ports as { name: string; containerPort: number }[];
        const guarding = policies.filter((p) => p.spec.policyTypes.includes('Ingress') && selects(p.spec.podSelector.matchLabels ?? {}, labels));
        expect({ app: component(d), guarded: guarding.length > 0 }).toEqual({ app: component(d), guarded: true });
        // Every rule that opens a port (a rule without ports opens them all) and who it lets in.
        type Rule = { ports?: { port: string | number }[]; from?: { podSelector?: { matchLabels: Record<string, string> } }[] };
        const openers = (port: { name: string; containerPort: number }): Rule[] =>
          guarding.flatMap((p) => (p.spec.ingress ?? []) as Rule[]).filter((rule) => !rule.ports || rule.ports.some((rp) => rp.port === port.name || rp.port === port.containerPort));
        for (const port of ports.filter((p) => p.name === 'grpc')) {
          const from = openers(port).map((rule) => rule.from ?? 'anyone');
          expect({ app: component(d), from }).toEqual({ app: component(d), from: [[{ podSelector: { matchLabels: expect.any(Object) } }]] });
          const gatewaySelector = (from[0] as Rule['from'] & object)[0].podSelector!.matchLabels;
          expect(selects(gatewaySelector, gatewayLabels)).toBe(true);
          // ...and the gateway's selector picks no other app's pods.
          for (const other of deployments().filter((o) => component(o) !== 'gateway')) expect(selects(gatewaySelector, other.spec.template.metadata.labels)).toBe(false);
        }
        const management = ports.find((p) => p.name === 'management')!;
        expect({ app: component(d), from: openers(management).map((rule) => rule.from ?? 'anyone') }).toEqual({
          app: component(d),
          from: [[{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': managementNamespace } } }]],
        });
      }
    });

    it('puts the services behind headless Services, and the gateway targets each one\'s every pod over dns:///', () => {
      const gatewayEnv = envOf(byComponent('Deployment', 'gateway')!);
      for (const [app, setting] of [['tail-sync', 'TAIL_SYNC_GRPC_TARGET'], ['webhook-dispatcher', 'WEBHOOK_DISPATCHER_GRPC_TARGET']]) {
        const service = byComponent('Service', app)!;
        expect(service.spec.clusterIP).toBe('None');
        expect(selects(service.spec.selector, byComponent('Deployment', app)!.spec.template.metadata.labels)).toBe(true);
        const grpc = (service.spec.ports as { name: string; port: number }[]).find((p) => p.name === 'grpc')!;
        expect(gatewayEnv[setting].value).toBe(`dns:///${service.metadata.name}.${NAMESPACE}.svc.cluster.local:${grpc.port}`);
      }
    });

    it('gives each app its own DATABASE_URL, the one the values name', () => {
      const urls = Object.fromEntries(deployments().map((d) => [component(d), envOf(d).DATABASE_URL.value]));
      const given = (values.postgresql as Record<string, { url: string }>);
      const tls = (values.postgresql as { tls?: { caSecret?: string } }).tls?.caSecret;
      const expected = (url: string) => (tls ? `${url}${url.includes('?') ? '&' : '?'}sslmode=verify-full&sslrootcert=/etc/tailsync/postgres-ca/ca.crt` : url);
      expect(urls).toEqual({ gateway: expected(given.gateway.url), 'tail-sync': expected(given.tailSync.url), 'webhook-dispatcher': expected(given.webhookDispatcher.url) });
      expect(new Set(Object.values(urls)).size).toBe(3);
    });

    it('never puts a secret in an environment: only *_FILE paths into the mounted Secret, and no secret value outside the Secret', () => {
      const secretName = (values.secrets as { existingSecret?: string }).existingSecret || 'tailsync-secrets';
      for (const d of deployments()) {
        const env = envOf(d);
        const inline = Object.entries(env).filter(([k, e]) => /(PASSWORD|SECRET|TOKEN|_KEY|CONNECTION_STRING)$/.test(k) || (e.valueFrom as { secretKeyRef?: unknown })?.secretKeyRef);
        expect({ app: component(d), inline: inline.map(([k]) => k) }).toEqual({ app: component(d), inline: [] });
        const volume = (d.spec.template.spec.volumes as { name: string; secret?: { secretName: string; items: { key: string; path: string }[] } }[]).find((v) => v.name === 'secrets')!;
        expect(volume.secret!.secretName).toBe(secretName);
        const mounted = volume.secret!.items.map((i) => `/run/secrets/${i.path}`);
        const files = Object.entries(env).filter(([k]) => k.endsWith('_FILE') && String(env[k].value).startsWith('/run/secrets/'));
        for (const [key, e] of files) expect({ app: component(d), key, mounted: mounted.includes(e.value!) }).toEqual({ app: component(d), key, mounted: true });
      }
      const outsideSecrets = objects.filter((o) => o.kind !== 'Secret').map((o) => JSON.stringify(o)).join('\n');
      const given = Object.entries(values.secrets as Record<string, string>).filter(([key]) => key !== 'existingSecret');
      for (const [key, value] of given) expect({ key, outside: outsideSecrets.includes(JSON.stringify(value).slice(1, -1)) }).toEqual({ key, outside: false });
    });

    it('gives the sealing key to the dispatcher alone: the gateway neither mounts it nor names it', () => {
      const sealing = (d: K8sObject) => {
        const volume = (d.spec.template.spec.volumes as { name: string; secret?: { items: { key: string }[] } }[]).find((v) => v.name === 'secrets')!;
        return { env: Object.keys(envOf(d)).filter((k) => k.startsWith('WEBHOOK_SECRET_KEY')), mounted: volume.secret!.items.some((i) => i.key === 'webhook_secret_key') };
      };
      expect(Object.fromEntries(deployments().map((d) => [component(d), sealing(d)]))).toEqual({
        gateway: { env: [], mounted: false },
        'tail-sync': { env: [], mounted: false },
        'webhook-dispatcher': { env: ['WEBHOOK_SECRET_KEY_FILE'], mounted: true },
      });
    });

    it('makes its own Secret, kept on uninstall, unless an existing one is named', () => {
      const secrets = ofKind(objects, 'Secret').filter((o) => o.type !== 'kubernetes.io/tls');
      if ((values.secrets as { existingSecret?: string }).existingSecret) {
        expect(secrets).toEqual([]);
        return;
      }
      expect(secrets.map((s) => s.metadata.name)).toEqual(['tailsync-secrets']);
      expect(secrets[0].metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
      const data = secrets[0].data as Record<string, string>;
      // The file the apps read is the base64 of 32 random bytes (WEBHOOK_SECRET_KEY), base64 again in the Secret.
      expect(Buffer.from(Buffer.from(data.webhook_secret_key, 'base64').toString(), 'base64')).toHaveLength(32);
      expect(Buffer.from(data.admin_token, 'base64').toString().length).toBeGreaterThanOrEqual(32);
      expect(Buffer.from(data.service_verify_key, 'base64').toString()).toBe(keys.SERVICE_VERIFY_KEY);
    });

    it("mounts in each app its own certificate and key of the service network alone, as GRPC_TLS_*; the CA's key in none", () => {
      const volumes = (d: K8sObject) => d.spec.template.spec.volumes as { name: string; secret?: { secretName: string; items?: { key: string }[] } }[];
      const tlsSecrets = deployments().map((d) => {
        const volume = volumes(d).find((v) => v.name === 'grpc-tls')!;
        const env = envOf(d);
        expect({ app: component(d), items: volume.secret!.items!.map((i) => i.key), files: [env.GRPC_TLS_CA_FILE?.value, env.GRPC_TLS_CERT_FILE?.value, env.GRPC_TLS_KEY_FILE?.value] }).toEqual({
          app: component(d), items: ['ca.crt', 'tls.crt', 'tls.key'], files: ['/etc/tailsync/grpc-tls/ca.crt', '/etc/tailsync/grpc-tls/tls.crt', '/etc/tailsync/grpc-tls/tls.key'],
        });
        return volume.secret!.secretName;
      });
      expect(new Set(tlsSecrets).size).toBe(3);
      const mounted = deployments().flatMap((d) => volumes(d).map((v) => v.secret?.secretName));
      expect(mounted).not.toContain('tailsync-grpc-ca');
    });

    it('probes each app on its management port, spreads copies over zones and nodes, and bounds voluntary disruptions', () => {
      for (const d of deployments()) {
        const c = d.spec.template.spec.containers[0];
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) expect({ app: component(d), probe, port: c[probe].httpGet.port }).toEqual({ app: component(d), probe, port: 'management' });
        expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
        const keysSpread = (d.spec.template.spec.topologySpreadConstraints as { topologyKey: string; labelSelector: { matchLabels: Record<string, string> } }[]);
        expect(keysSpread.map((t) => t.topologyKey)).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
        for (const t of keysSpread) expect(selects(t.labelSelector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
        const pdb = byComponent('PodDisruptionBudget', component(d)!)!;
        expect(selects(pdb.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
      }
    });

    it('scales the gateway with an autoscaler when it is on (the Deployment then leaves replicas to it)', () => {
      const hpa = ofKind(objects, 'HorizontalPodAutoscaler');
      const gateway = byComponent('Deployment', 'gateway')!;
      if ((values.gateway as { autoscaling?: { enabled: boolean } } | undefined)?.autoscaling?.enabled === false) {
        expect(hpa).toEqual([]);
        expect(gateway.spec.replicas).toBe(1);
        return;
      }
      expect(hpa.map((h) => h.spec.scaleTargetRef)).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: gateway.metadata.name }]);
      expect(gateway.spec.replicas).toBeUndefined();
    });

    it('sets only settings the apps document (README, "Configuration")', () => {
      const documented = readmeSettings(join(REPO_ROOT, 'README.md'));
      for (const d of deployments()) {
        const unknown = Object.keys(envOf(d))
          .filter((k) => !documented.has(k) && !documented.has(k.replace(/_FILE$/, '')));
        expect({ app: component(d), unknown }).toEqual({ app: component(d), unknown: [] });
      }
    });
  });

  it('creates ServiceMonitors and the PrometheusRule only when the cluster serves their CRDs, or when told to', () => {
    const kinds = (objects: K8sObject[]) => objects.map((o) => o.kind).filter((k) => k === 'ServiceMonitor' || k === 'PrometheusRule');
    expect(kinds(render(VALUE_SETS.defaults).objects)).toEqual([]);
    const served = render(VALUE_SETS.defaults, ['--api-versions', 'monitoring.coreos.com/v1/ServiceMonitor', '--api-versions', 'monitoring.coreos.com/v1/PrometheusRule']).objects;
    expect(kinds(served).sort()).toEqual(['PrometheusRule', 'ServiceMonitor', 'ServiceMonitor', 'ServiceMonitor']);
    const never = render({ ...VALUE_SETS.defaults, metrics: { serviceMonitor: { create: 'never' }, prometheusRule: { create: 'never' } } }, ['--api-versions', 'monitoring.coreos.com/v1/ServiceMonitor']).objects;
    expect(kinds(never)).toEqual([]);
  });

  it("scrapes each app's management port as the job the alert rules name, and ships exactly deploy/prometheus's rules", () => {
    const { objects } = render(VALUE_SETS['managed Kafka (SASL/SCRAM over TLS) and PostgreSQL (TLS), existingSecret']);
    for (const monitor of ofKind(objects, 'ServiceMonitor')) {
      const service = ofKind(objects, 'Service').find((s) => selects(monitor.spec.selector.matchLabels, s.metadata.labels ?? {}))!;
      expect(service.metadata.labels![monitor.spec.jobLabel]).toBe(`tailsync-${component(service)}`);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'management', path: '/metrics' })]);
      expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack');
    }
    const [rule] = ofKind(objects, 'PrometheusRule');
    expect(rule.spec.groups).toEqual((parse(readFileSync(ALERT_RULES, 'utf8')) as { groups: unknown[] }).groups);
  });

  it('refuses, naming the value, an install without Kafka, a database URL, the key pair, with a secret where it does not belong, or a value it does not know', () => {
    const refusal = (values: Values) => {
      const out = template(values);
      return { status: out.status, message: out.stderr };
    };
    const base = VALUE_SETS.defaults as { kafka: Values; postgresql: Values; secrets: Values };
    expect(refusal({ ...base, kafka: { brokers: '' } })).toEqual({ status: 1, message: expect.stringContaining('kafka.brokers is required') });
    expect(refusal({ ...base, postgresql: { ...base.postgresql, tailSync: { url: '' } } })).toEqual({ status: 1, message: expect.stringContaining('postgresql.tailSync.url is required') });
    expect(refusal({ ...base, secrets: {} })).toEqual({ status: 1, message: expect.stringContaining('secrets.serviceSigningKey and secrets.serviceVerifyKey are required') });
    expect(refusal({ ...base, postgresql: { ...base.postgresql, gateway: { url: 'postgres://gw:hunter2@db:5432/tailsync' } } })).toEqual({ status: 1, message: expect.stringContaining('postgresql.gateway.url carries a password') });
    expect(refusal({ ...base, env: { JWT_SECRET: 'x'.repeat(40) } })).toEqual({ status: 1, message: expect.stringContaining('env.JWT_SECRET looks like a secret') });
    expect(refusal({ ...base, kafka: { brokers: 'kafka:9092', sasl: { mechanism: 'scram-sha-512' } } })).toEqual({ status: 1, message: expect.stringContaining('kafkaTailSyncPassword') });
    // values.schema.json: a misspelt value or an unknown choice is refused, not silently ignored.
    expect(refusal({ ...base, gateway: { replica: 3 } })).toEqual({ status: 1, message: expect.stringContaining("additional properties 'replica' not allowed") });
    expect(refusal({ ...base, metrics: { serviceMonitor: { create: 'yes' } } })).toEqual({ status: 1, message: expect.stringMatching(/serviceMonitor\/create.*one of 'auto', 'always', 'never'/) });
  });

  describe("the service network's certificates (grpcTls)", () => {
    const base = VALUE_SETS.defaults;
    const tlsSecretsOf = (objects: K8sObject[]) => ofKind(objects, 'Secret').filter((o) => o.type === 'kubernetes.io/tls');
    const mountedTls = (objects: K8sObject[]) =>
      Object.fromEntries(ofKind(objects, 'Deployment').map((d) => [component(d), (d.spec.template.spec.volumes as { name: string; secret: { secretName: string } }[]).find((v) => v.name === 'grpc-tls')!.secret.secretName]));

    it("are made by the chart when none are given: a CA, and per app a certificate the apps' own TLS accepts and checks", async () => {
      const { objects } = render(base);
      const secrets = tlsSecretsOf(objects);
      expect(secrets.map((o) => o.metadata.name).sort()).toEqual(['tailsync-gateway-grpc-tls', 'tailsync-grpc-ca', 'tailsync-tail-sync-grpc-tls', 'tailsync-webhook-dispatcher-grpc-tls']);
      expect(mountedTls(objects)).toEqual({ gateway: 'tailsync-gateway-grpc-tls', 'tail-sync': 'tailsync-tail-sync-grpc-tls', 'webhook-dispatcher': 'tailsync-webhook-dispatcher-grpc-tls' });
      // The files as the pods see them, used by a real gRPC server and clients (the apps' TLS code).
      const dir = mkdtempSync(join(workDir, 'grpc-tls-'));
      const filesOf = (app: string): GrpcTlsFiles => {
        const data = secrets.find((o) => o.metadata.name === `tailsync-${app}-grpc-tls`)!.data as Record<string, string>;
        for (const file of ['ca.crt', 'tls.crt', 'tls.key']) writeFileSync(join(dir, `${app}-${file}`), Buffer.from(data[file], 'base64'));
        return { caFile: join(dir, `${app}-ca.crt`), certFile: join(dir, `${app}-tls.crt`), keyFile: join(dir, `${app}-tls.key`) };
      };
      const names = (app: string) => new X509Certificate(readFileSync(filesOf(app).certFile)).subjectAltName;
      expect(names('tail-sync')).toBe(`DNS:tail-sync, DNS:tailsync-tail-sync, DNS:tailsync-tail-sync.${NAMESPACE}.svc, DNS:tailsync-tail-sync.${NAMESPACE}.svc.cluster.local`);
      expect(names('gateway')).toBe('DNS:gateway');
      const outcomes = await withGrpcServer(filesOf('tail-sync'), async (port) => ({
        gateway: await ping(port, filesOf('gateway'), 'tail-sync'),
        asTheDispatcher: await ping(port, filesOf('gateway'), 'webhook-dispatcher'),
        dispatcherAsClient: await ping(port, filesOf('webhook-dispatcher'), 'tail-sync'),
      }));
      expect(outcomes).toEqual({ gateway: 'answered', asTheDispatcher: 'UNAVAILABLE', dispatcherAsClient: 'UNAUTHENTICATED' });
    });

    it('are cert-manager Certificates when asked: one per app, for its names, from the issuer named', () => {
      const { objects } = render(VALUE_SETS["the service network's certificates from cert-manager"]);
      expect(tlsSecretsOf(objects)).toEqual([]);
      const certificates = ofKind(objects, 'Certificate');
      const mounted = mountedTls(objects);
      expect(
        Object.fromEntries(certificates.map((c) => [component(c), { secretName: c.spec.secretName, commonName: c.spec.commonName, firstName: c.spec.dnsNames[0], usages: c.spec.usages, issuer: c.spec.issuerRef }])),
      ).toEqual(
        Object.fromEntries(['gateway', 'tail-sync', 'webhook-dispatcher'].map((app) => [app, {
          secretName: mounted[app], commonName: app, firstName: app, usages: ['digital signature', app === 'gateway' ? 'client auth' : 'server auth'],
          issuer: { name: 'tailsync-service-network', kind: 'ClusterIssuer', group: 'cert-manager.io' },
        }])),
      );
    });

    it("are the operator's own Secrets when named: the chart makes no certificate", () => {
      const { objects } = render(VALUE_SETS["EventStoreDB, the operator's own gRPC certificates, tracing and extra settings"]);
      expect([...tlsSecretsOf(objects), ...ofKind(objects, 'Certificate')]).toEqual([]);
      expect(mountedTls(objects)).toEqual({ gateway: 'gateway-grpc-tls', 'tail-sync': 'tail-sync-grpc-tls', 'webhook-dispatcher': 'webhook-dispatcher-grpc-tls' });
    });

    it('are off with grpcTls.enabled=false: plaintext gRPC, no certificate made or mounted', () => {
      const { objects } = render({ ...base, grpcTls: { enabled: false } });
      expect([...tlsSecretsOf(objects), ...ofKind(objects, 'Certificate')]).toEqual([]);
      for (const d of ofKind(objects, 'Deployment')) expect({ app: component(d), tls: Object.keys(envOf(d)).filter((k) => k.startsWith('GRPC_TLS_')) }).toEqual({ app: component(d), tls: [] });
    });

    it('refuses half an existingSecret, existingSecret with cert-manager, and cert-manager without an issuer', () => {
      const refusal = (grpcTls: Values) => template({ ...base, grpcTls }).stderr;
      expect(refusal({ existingSecret: { gateway: 'gw' } })).toContain('grpcTls.existingSecret: name all three Secrets');
      expect(refusal({ existingSecret: { gateway: 'a', tailSync: 'b', webhookDispatcher: 'c' }, certManager: { enabled: true, issuerRef: { name: 'ca' } } })).toContain('exclude each other');
      expect(refusal({ certManager: { enabled: true } })).toContain('grpcTls.certManager.issuerRef.name is required');
    });
  });
});
