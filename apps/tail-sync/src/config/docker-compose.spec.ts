import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeEnvironment, loadConfig, newServiceKeys, unknownSettings, withSecretFiles } from '@tailsync/service-kit';
import { TailSyncConfig } from './tail-sync.config';

describe('tail-sync in docker-compose.yml', () => {
  it('sets every setting tail-sync requires, valid, and no setting it does not know', () => {
    const eventstore_connection_string = 'esdb://tailsync:operator%2Fpassword@eventstore:2113?tls=true&tlsCAFile=/etc/tailsync/eventstore-ca/ca.crt';
    const secrets = { postgres_tail_sync_password: 'tail-sync-database-password', service_verify_key: newServiceKeys().SERVICE_VERIFY_KEY, kafka_tail_sync_password: 'tail-sync-kafka-password', eventstore_connection_string };
    const env = withSecretFiles(composeEnvironment('tail-sync', {}), mkdtempSync(join(tmpdir(), 'tail-sync-secrets-')), secrets);
    expect(unknownSettings(env, TailSyncConfig)).toEqual([]);
    const config = loadConfig(TailSyncConfig, env);
    expect(config.EVENT_STORE).toBe('esdb');
    // The secure store's connection, from its secret file: TLS, a user, never in the environment.
    expect(config.EVENTSTORE_CONNECTION_STRING).toBe(eventstore_connection_string);
    expect(env.EVENTSTORE_CONNECTION_STRING_FILE).toMatch(/eventstore_connection_string$/);
    expect(config.KAFKA_BROKERS).toBe('kafka:9092');
    // Its own Kafka principal, the password from its secret file.
    expect(config).toMatchObject({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'tail-sync' });
    expect(env.KAFKA_SASL_PASSWORD_FILE).toMatch(/kafka_tail_sync_password$/);
    expect(config.TAIL_SYNC_GRPC_PORT).toBe(50051);
    expect(config.DATABASE_URL).toBe('postgres://tailsync_tail_sync:tail-sync-database-password@postgres:5432/tailsync');
  });
});
