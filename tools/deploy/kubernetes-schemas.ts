import { join } from 'node:path';

/** The Kubernetes release the chart is validated against (its own OpenAPI documents). */
export const KUBERNETES_VERSION = '1.37.2';
/** The prometheus-operator release whose CRDs give ServiceMonitor's and PrometheusRule's schemas. */
export const PROMETHEUS_OPERATOR_VERSION = 'v0.85.0';
/** The cert-manager release whose CRD gives Certificate's schema (grpcTls.certManager). */
export const CERT_MANAGER_VERSION = 'v1.21.2';

/** Where the generated schemas are committed, in kubeconform's layout (`-schema-location` this folder). */
export const KUBERNETES_SCHEMAS_ROOT = join(__dirname, 'kubernetes-schemas');
export const KUBERNETES_SCHEMAS = join(KUBERNETES_SCHEMAS_ROOT, `v${KUBERNETES_VERSION}-standalone-strict`);

/** Every kind the chart renders, with any values: a schema each (`npm run generate:kubernetes-schemas`). */
export const CHART_KINDS = [
  { apiVersion: 'v1', kind: 'Secret' },
  { apiVersion: 'v1', kind: 'Service' },
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' },
  { apiVersion: 'cert-manager.io/v1', kind: 'Certificate' },
] as const;
