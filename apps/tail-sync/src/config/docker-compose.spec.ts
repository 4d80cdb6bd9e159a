import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeEnvironment, loadConfig, newServiceKeys, unknownSettings, withSecretFiles } from '@tailsync/service-kit';
import { TailSyncConfig } from './tail-sync.config';

describe('tail-sync in docker-compose.yml', () => {
  it('sets every setting tail-sync requires, valid, and no setting it does not know', () => {
    const secrets = { postgres_password: 'operator-database-password', service_verify_key: newServiceKeys().SERVICE_VERIFY_KEY };
    const env = withSecretFiles(composeEnvironment('tail-sync', {}), mkdtempSync(join(tmpdir(), 'tail-sync-secrets-')), secrets);
    expect(unknownSettings(env, TailSyncConfig)).toEqual([]);
    const config = loadConfig(TailSyncConfig, env);
    expect(config.EVENT_STORE).toBe('esdb');
    expect(config.KAFKA_BROKERS).toBe('kafka:9092');
    expect(config.TAIL_SYNC_GRPC_PORT).toBe(50051);
    expect(config.DATABASE_URL).toBe('postgres://tailsync:operator-database-password@postgres:5432/tailsync');
  });
});
