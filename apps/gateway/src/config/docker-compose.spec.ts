import { composeEnvironment, knownSettings, loadConfig } from '@tailsync/service-kit';
import { GatewayConfig } from './gateway.config';

const operatorEnv = {
  ADMIN_TOKEN: 'operator-admin-token',
  JWT_SECRET: 'x'.repeat(48),
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  POSTGRES_PASSWORD: 'operator-database-password',
};

describe('gateway in docker-compose.yml', () => {
  it('sets every setting the gateway requires, valid, and no setting it does not know', () => {
    const env = composeEnvironment('gateway', operatorEnv);
    expect(Object.keys(env).filter((k) => !knownSettings(GatewayConfig).has(k))).toEqual([]);
    expect(loadConfig(GatewayConfig, env).PORT).toBe(3000);
  });

  it('refuses to start without the operator\'s secrets', () => {
    expect(() => composeEnvironment('gateway', {})).toThrow(/ADMIN_TOKEN|JWT_SECRET|WEBHOOK_SECRET_KEY|POSTGRES_PASSWORD/);
  });
});
