/** Test support for other projects' specs (never imported by production code). */
export { schemaLayout } from './postgres/schema-layout.test-support';
export { migratedSchema } from './postgres/migrated-schema.test-support';
export type { MigratedSchema } from './postgres/migrated-schema.test-support';
export { testKafka } from './kafka/test-kafka.test-support';
export { readFromStart, readToEnd, type RawMessage, type TopicReadOptions } from './kafka/topic-reads.test-support';
export { freePort } from './net/free-port.test-support';
export { cutOff, cutsInPlace, healEveryCut, type NetworkCut } from './net/network-cut.test-support';
export { folderCycles, folderGraph, type FolderGraph } from './structure/folder-graph.test-support';
export { TestPki, grpcTlsSettings } from './grpc/test-pki.test-support';
