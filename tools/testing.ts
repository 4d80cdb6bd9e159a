/**
 * What e2e files and benches use of the tools (`@tailsync/tools/testing`): publishing events as
 * the product does, the Kafka principals' settings, the monitoring files' metric names, the
 * alerts promtool raises over scrapes, the test CA of the broker's TLS runs, the service
 * network's certificates, the launchers' clean-up of servers a killed run left behind, the tools
 * built from Go source, the wait for the Python venvs `npm test` installs beside the suites (an e2e file's own), and
 * the Kafka cluster and the replicated PostgreSQL the fault suite starts (and a connection to one
 * of its servers).
 */
export { publishRiskAssessments } from './cli/publish-risk-assessment';
export { principalSettings, readKafkaClients, type KafkaClients } from './kafka/kafka-clients-file';
export type { Principal } from './kafka/principals';
export { ALERT_RULES, exportedMetricNames, metricNamesIn, monitoringExpressions, PROMETHEUS_OWN } from './deploy/monitored-metrics';
export { ruleTestInput, type TargetScrape } from './deploy/rule-test-input';
export { alertsRaised, type SeenAlert } from './deploy/promtool-alerts';
export { testCertificateAuthority } from './kafka/test-ca';
export { ensureServiceNetworkCertificates } from './pki/grpc-certificates';
export { stopOrphanedPostgres } from './postgres/embedded-postgres';
export { stopOrphanedBroker } from './kafka/broker';
export { builtTool, TOOL_BUILD_TIMEOUT_MS } from './test/built-tools';
export { venvsReady } from './test/test-preparations';
export { venvsReadBy } from './test/test-venvs';
export { startLocalKafka, type LocalKafka } from './stack/local-kafka';
export type { KafkaNode } from './kafka/broker';
export { kraftConfigPaths } from './kafka/kraft-config';
export { cutOff, cutsInPlace, type NetworkCut } from '@tailsync/service-kit/testing';
export { startReplicatedPostgres, type ReplicatedPostgres, type FailoverTimes } from './postgres/replicated-postgres';
export { onServer } from './postgres/on-server';
export { startDatabaseEndpoint, type DatabaseEndpoint } from './postgres/database-endpoint';
