import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

/**
 * A program the tests (or the compose test) run that is built from its Go module, served by the
 * Go module proxy. How it is built depends on its go.mod: `go install pkg@version` refuses a
 * module with `replace` directives, so those build inside a module that honours them.
 */
export interface GoTool {
  /** The executable's name, and the name tests ask for (`builtTool('helm')`). */
  name: string;
  /** The package path of its `main` package. */
  pkg: string;
  version: string;
  source: GoInstall | OurModule | ItsOwnModule;
  /** Extra `-ldflags` (a version stamp). */
  ldflags?: string;
  /** Build tags (`-tags`) the tool's own build offers to leave out parts our tests never use. */
  tags?: string[];
}

/** `go install pkg@version`: the module's go.mod has no `replace`. */
export interface GoInstall {
  kind: 'install';
}

/** A module of ours that requires the tool (as a `tool`), pinning what its `replace` needs. */
export interface OurModule {
  kind: 'our-module';
  dir: string;
}

/** The downloaded module itself, whose `replace` directives then apply; `pkg` is relative to it. */
export interface ItsOwnModule {
  kind: 'its-module';
  module: string;
}

/** Jaeger v2 (OTLP in, query API out): the tracing e2e test's real backend. */
export const JAEGER: GoTool = {
  name: 'jaeger',
  pkg: 'github.com/jaegertracing/jaeger/cmd/jaeger',
  version: 'v1.76.0',
  source: { kind: 'our-module', dir: join(REPO_ROOT, 'tools', 'jaeger') },
};

/** Prometheus's rule checker: `promtool check rules` over deploy/prometheus. */
export const PROMTOOL: GoTool = {
  name: 'promtool',
  pkg: 'github.com/prometheus/prometheus/cmd/promtool',
  version: 'v0.316.0',
  source: { kind: 'install' },
  // Prometheus's own tag: no cloud service discovery (AWS, Azure, GCE, ...), which rules never
  // use; a cold build alone takes 378 CPU-seconds instead of 849.
  tags: ['remove_all_sd'],
};

/** Helm 3, which lints and renders the chart under deploy/helm. */
export const HELM: GoTool = { name: 'helm', pkg: 'helm.sh/helm/v3/cmd/helm', version: 'v3.22.0', source: { kind: 'install' } };

/** kubeconform, which validates the rendered chart against Kubernetes' own schemas. */
export const KUBECONFORM: GoTool = { name: 'kubeconform', pkg: 'github.com/yannh/kubeconform/cmd/kubeconform', version: 'v0.8.0', source: { kind: 'install' } };

/** The GitHub workflows' linter (`npm run lint:workflows`, which `.ci/run` runs). */
export const ACTIONLINT: GoTool = { name: 'actionlint', pkg: 'github.com/rhysd/actionlint/cmd/actionlint', version: 'v1.7.7', source: { kind: 'install' } };

/** The Compose release the compose test builds when the Docker CLI has no compose plugin. */
export const COMPOSE: GoTool = {
  name: 'docker-compose',
  pkg: './cmd',
  version: 'v2.40.3',
  source: { kind: 'its-module', module: 'github.com/docker/compose/v2' },
  ldflags: '-X github.com/docker/compose/v2/internal.Version=v2.40.3',
};

/** One module builds both (tools/kube-apiserver/go.mod: the published k8s.io/* modules in place of Kubernetes' staging folders). */
const KUBERNETES_MODULE: OurModule = { kind: 'our-module', dir: join(REPO_ROOT, 'tools', 'kube-apiserver') };

/** etcd, the store of the kube-apiserver below: the release Kubernetes v1.37.2 pins. */
export const ETCD: GoTool = { name: 'etcd', pkg: 'go.etcd.io/etcd/server/v3', version: 'v3.7.0', source: KUBERNETES_MODULE };

/**
 * Kubernetes' own API server, which the chart is installed and upgraded on (tools/deploy/cluster).
 * Not a tool of `npm test`: .ci/run builds it in the background and runs that test after the suite.
 */
export const KUBE_APISERVER: GoTool = {
  name: 'kube-apiserver',
  pkg: 'k8s.io/kubernetes/cmd/kube-apiserver',
  version: 'v1.37.2',
  source: KUBERNETES_MODULE,
  // The stamp Kubernetes' own build gives (hack/lib/version.sh): the server reports 1.37.2, which
  // Helm checks a chart's kubeVersion against (unstamped, it says v0.0.0-master).
  ldflags: ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']
    .flatMap((pkg) => [`-X ${pkg}.gitVersion=v1.37.2`, `-X ${pkg}.gitMajor=1`, `-X ${pkg}.gitMinor=37`, `-X ${pkg}.gitTreeState=clean`])
    .join(' '),
};

/**
 * In the order the suite needs them, which is the order the runner builds them in, one at a time:
 * Nx runs e2e (Jaeger) before tools, whose chart test (Helm, kubeconform) runs before the rules test.
 */
export const GO_TOOLS = [JAEGER, HELM, KUBECONFORM, PROMTOOL, ACTIONLINT, COMPOSE, ETCD, KUBE_APISERVER] as const;
export type GoToolName = (typeof GO_TOOLS)[number]['name'];

export function goTool(name: string): GoTool {
  const tool = GO_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no Go tool named ${name} (known: ${GO_TOOLS.map((t) => t.name).join(', ')})`);
  return tool;
}

/** The Nx projects whose tests run each tool: the runner builds a tool only when they run. */
export const TOOLS_BY_PROJECT: Record<string, GoToolName[]> = {
  tools: ['promtool', 'helm', 'kubeconform'],
  e2e: ['jaeger'],
};
