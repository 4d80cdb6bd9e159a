/**
 * What e2e files and benches use of the tools (`@tailsync/tools/testing`): publishing events as
 * the product does, the Kafka principals' settings, the monitoring files' metric names, the test
 * CA of the broker's TLS runs, the service network's certificates, the launchers' clean-up of servers a killed run left behind, and
 * the tools built from Go source.
 */
export { publishRiskAssessments } from './cli/publish-risk-assessment';
export { principalSettings, readKafkaClients, type KafkaClients } from './kafka/kafka-clients-file';
export type { Principal } from './kafka/principals';
export { exportedMetricNames, metricNamesIn, monitoringExpressions, PROMETHEUS_OWN } from './deploy/monitored-metrics';
export { testCertificateAuthority } from './kafka/test-ca';
export { ensureServiceNetworkCertificates } from './pki/grpc-certificates';
export { stopOrphanedPostgres } from './postgres/embedded-postgres';
export { stopOrphanedBroker } from './kafka/broker';
export { builtTool, TOOL_BUILD_TIMEOUT_MS } from './test/built-tools';
