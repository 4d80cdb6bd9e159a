import { composeEnvironment, knownSettings, loadConfig, newServiceKeys } from '@tailsync/service-kit';
import { TailSyncConfig } from './tail-sync.config';

describe('tail-sync in docker-compose.yml', () => {
  it('sets every setting tail-sync requires, valid, and no setting it does not know', () => {
    const env = composeEnvironment('tail-sync', { POSTGRES_PASSWORD: 'operator-database-password', ...newServiceKeys() });
    expect(Object.keys(env).filter((k) => !knownSettings(TailSyncConfig).has(k))).toEqual([]);
    const config = loadConfig(TailSyncConfig, env);
    expect(config.EVENT_STORE).toBe('esdb');
    expect(config.KAFKA_BROKERS).toBe('kafka:9092');
    expect(config.TAIL_SYNC_GRPC_PORT).toBe(50051);
    expect(config.DATABASE_URL).toBe('postgres://tailsync:operator-database-password@postgres:5432/tailsync');
  });
});
