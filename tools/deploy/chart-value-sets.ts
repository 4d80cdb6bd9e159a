/**
 * The value sets the Helm chart is checked with (tools/deploy/helm-chart.spec.ts renders them,
 * tools/deploy/cluster installs them on a kube-apiserver): the chart's defaults with only what it
 * requires, and the operators' cases.
 */
import { newServiceKeys } from '@tailsync/service-kit';

export type Values = Record<string, unknown>;

export const keys = newServiceKeys();
const databaseUrls = {
  gateway: 'postgres://tailsync_gateway@db.example.internal:5432/tailsync',
  tailSync: 'postgres://tailsync_tail_sync@db.example.internal:5432/tailsync',
  webhookDispatcher: 'postgres://tailsync_webhook_dispatcher@db.example.internal:5432/tailsync',
};
/** Secret values given to the chart: none may appear anywhere but in its Secret. */
const secretValues = {
  serviceSigningKey: keys.SERVICE_SIGNING_KEY,
  serviceVerifyKey: keys.SERVICE_VERIFY_KEY,
  kafkaTailSyncPassword: 'tail-sync-kafka-password-5d1c',
  kafkaWebhookDispatcherPassword: 'dispatcher-kafka-password-91aa',
  gatewayDatabasePassword: 'gateway-db-password-0b7e',
  tailSyncDatabasePassword: 'tail-sync-db-password-c3f2',
  webhookDispatcherDatabasePassword: 'dispatcher-db-password-77d0',
};

export const VALUE_SETS: Record<string, Values> = {
  defaults: {
    kafka: { brokers: 'kafka.kafka.svc:9092' },
    postgresql: { gateway: { url: databaseUrls.gateway }, tailSync: { url: databaseUrls.tailSync }, webhookDispatcher: { url: databaseUrls.webhookDispatcher } },
    secrets: { serviceSigningKey: secretValues.serviceSigningKey, serviceVerifyKey: secretValues.serviceVerifyKey },
  },
  'managed Kafka (SASL/SCRAM over TLS) and PostgreSQL (TLS), existingSecret': {
    kafka: {
      brokers: 'b-1.kafka.example.com:9096,b-2.kafka.example.com:9096,b-3.kafka.example.com:9096',
      sasl: { mechanism: 'scram-sha-512' },
      tls: { enabled: true, caSecret: 'kafka-ca' },
    },
    postgresql: {
      gateway: { url: `${databaseUrls.gateway}?application_name=gateway` },
      tailSync: { url: databaseUrls.tailSync },
      webhookDispatcher: { url: databaseUrls.webhookDispatcher },
      tls: { caSecret: 'postgres-ca' },
    },
    secrets: { existingSecret: 'tailsync-operator-secrets' },
    gateway: { publicBaseUrl: 'https://api.example.com', trustProxy: '10.0.0.0/8' },
    networkPolicy: { managementNamespace: 'observability', apiFrom: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }] },
    metrics: { serviceMonitor: { create: 'always', labels: { release: 'kube-prometheus-stack' } }, prometheusRule: { create: 'always', labels: { release: 'kube-prometheus-stack' } } },
  },
  'one copy of each app': {
    kafka: { brokers: 'kafka:9092', sasl: { mechanism: 'scram-sha-256' } },
    postgresql: { gateway: { url: databaseUrls.gateway }, tailSync: { url: databaseUrls.tailSync }, webhookDispatcher: { url: databaseUrls.webhookDispatcher } },
    secrets: secretValues,
    gateway: { replicas: 1, autoscaling: { enabled: false } },
    tailSync: { replicas: 1 },
    webhookDispatcher: { replicas: 1 },
  },
  "EventStoreDB, the operator's own gRPC certificates, tracing and extra settings": {
    kafka: { brokers: 'kafka:9092' },
    postgresql: { gateway: { url: databaseUrls.gateway }, tailSync: { url: databaseUrls.tailSync }, webhookDispatcher: { url: databaseUrls.webhookDispatcher } },
    secrets: { ...secretValues, eventstoreConnectionString: 'esdb://tailsync:esdb-password-4e1a@eventstore:2113?tls=true' },
    tailSync: { eventStore: 'esdb' },
    grpcTls: { existingSecret: { gateway: 'gateway-grpc-tls', tailSync: 'tail-sync-grpc-tls', webhookDispatcher: 'webhook-dispatcher-grpc-tls' } },
    tracing: { otlpEndpoint: 'http://otel-collector.observability:4318' },
    env: { WEBHOOK_LOG_RETENTION_DAYS: '40' },
    webhookDispatcher: { env: { WEBHOOK_MAX_CONCURRENCY: 128 } },
  },
  "the service network's certificates from cert-manager": {
    kafka: { brokers: 'kafka:9092' },
    postgresql: { gateway: { url: databaseUrls.gateway }, tailSync: { url: databaseUrls.tailSync }, webhookDispatcher: { url: databaseUrls.webhookDispatcher } },
    secrets: { serviceSigningKey: secretValues.serviceSigningKey, serviceVerifyKey: secretValues.serviceVerifyKey },
    grpcTls: { certManager: { enabled: true, issuerRef: { name: 'tailsync-service-network', kind: 'ClusterIssuer' } } },
  },
};
