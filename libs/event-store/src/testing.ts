/** Test support for other projects' specs (never imported by production code). */
export { InMemoryEsdbServer } from './esdb/in-memory-esdb-server.test-support';
export type { InjectedFault } from './esdb/in-memory-esdb-server.test-support';
export { tablesBeforeMigrations } from './postgres/tables-before-migrations.test-support';
