/**
 * The CustomResourceDefinitions of the kinds the chart renders that are not Kubernetes' own
 * (ServiceMonitor and PrometheusRule of prometheus-operator, cert-manager's Certificate), read
 * from the modules of their releases (kubernetes-schemas.ts) that the Go module proxy serves:
 * downloaded once per machine into Go's module cache.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { findGo } from '../ci/go';
import { CERT_MANAGER_VERSION, CHART_KINDS, PROMETHEUS_OPERATOR_VERSION } from './kubernetes-schemas';

export type ChartKind = (typeof CHART_KINDS)[number];

/** The folder of a Go module, downloaded into the module cache when missing. */
export function moduleDir(module: string): string {
  const go = findGo();
  if (!go) throw new Error('Go is needed to download the modules the schemas and CRDs come from (https://go.dev/dl)');
  const out = execFileSync(go, ['mod', 'download', '-json', module], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

/** Where each API group's CRD files are, by kind. */
const CRD_SOURCES: Record<string, (kind: string) => string> = {
  'monitoring.coreos.com': (kind) =>
    join(moduleDir(`github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION}`), 'example', 'prometheus-operator-crd', `monitoring.coreos.com_${kind.toLowerCase()}s.yaml`),
  'cert-manager.io': (kind) => join(moduleDir(`github.com/cert-manager/cert-manager@${CERT_MANAGER_VERSION}`), 'deploy', 'crds', `cert-manager.io_${kind.toLowerCase()}s.yaml`),
};

const groupOf = ({ apiVersion }: ChartKind) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** The chart's kinds that a CRD defines. */
export const CRD_KINDS = CHART_KINDS.filter((kind) => CRD_SOURCES[groupOf(kind)] !== undefined);

/** The CRD file of one of CRD_KINDS. */
export function crdFile(kind: ChartKind): string {
  const source = CRD_SOURCES[groupOf(kind)];
  if (!source) throw new Error(`${kind.apiVersion} ${kind.kind} is Kubernetes' own: no CRD`);
  return source(kind.kind);
}
