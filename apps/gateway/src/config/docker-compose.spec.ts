import { composeEnvironment, knownSettings, loadConfig, newServiceKeys } from '@tailsync/service-kit';
import { GatewayConfig } from './gateway.config';

const operatorEnv = {
  ADMIN_TOKEN: 'operator-admin-token-of-at-least-32-characters',
  JWT_SECRET: 'x'.repeat(48),
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  POSTGRES_PASSWORD: 'operator-database-password',
  ...newServiceKeys(),
};

describe('gateway in docker-compose.yml', () => {
  it('sets every setting the gateway requires, valid, and no setting it does not know', () => {
    const env = composeEnvironment('gateway', operatorEnv);
    expect(Object.keys(env).filter((k) => !knownSettings(GatewayConfig).has(k))).toEqual([]);
    const config = loadConfig(GatewayConfig, env);
    expect(config.PORT).toBe(3000);
    expect([config.TAIL_SYNC_GRPC_TARGET, config.WEBHOOK_DISPATCHER_GRPC_TARGET]).toEqual(['dns:///tail-sync:50051', 'dns:///webhook-dispatcher:50051']);
  });

  it('refuses to start without the operator\'s secrets', () => {
    expect(() => composeEnvironment('gateway', {})).toThrow(/ADMIN_TOKEN|JWT_SECRET|WEBHOOK_SECRET_KEY|POSTGRES_PASSWORD/);
  });
});
