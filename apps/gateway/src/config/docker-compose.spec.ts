import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeEnvironment, loadConfig, newServiceKeys, readCompose, unknownSettings, withSecretFiles } from '@tailsync/service-kit';
import { GatewayConfig } from './gateway.config';

const secrets = {
  admin_token: 'operator-admin-token-of-at-least-32-characters',
  jwt_secret: 'x'.repeat(48),
  postgres_gateway_password: 'gateway database/password',
  service_signing_key: newServiceKeys().SERVICE_SIGNING_KEY,
};

describe('gateway in docker-compose.yml', () => {
  it('sets every setting the gateway requires, valid, its secrets from files, and no setting it does not know', () => {
    const env = withSecretFiles(composeEnvironment('gateway', {}), mkdtempSync(join(tmpdir(), 'gateway-secrets-')), secrets);
    expect(unknownSettings(env, GatewayConfig)).toEqual([]);
    expect(Object.values(env)).not.toContain(secrets.jwt_secret); // no secret in the container's environment
    const config = loadConfig(GatewayConfig, env);
    expect(config).toMatchObject({ PORT: 3000, ADMIN_TOKEN: secrets.admin_token, JWT_SECRET: secrets.jwt_secret });
    expect(config.DATABASE_URL).toBe('postgres://tailsync_gateway:gateway%20database%2Fpassword@postgres:5432/tailsync');
    expect([config.TAIL_SYNC_GRPC_TARGET, config.WEBHOOK_DISPATCHER_GRPC_TARGET]).toEqual(['dns:///tail-sync:50051', 'dns:///webhook-dispatcher:50051']);
  });

  it('holds no sealing key: neither the setting nor the secret file of webhook-dispatcher\'s WEBHOOK_SECRET_KEY', () => {
    const env = composeEnvironment('gateway', {});
    expect(Object.keys(env).filter((key) => key.startsWith('WEBHOOK_SECRET_KEY'))).toEqual([]);
    expect(readCompose().services.gateway.secrets).not.toContain('webhook_secret_key');
    expect(readCompose().services['webhook-dispatcher'].secrets).toContain('webhook_secret_key');
  });

  it('refuses to start without the operator\'s secret files, naming the setting', () => {
    const env = withSecretFiles(composeEnvironment('gateway', {}), mkdtempSync(join(tmpdir(), 'gateway-secrets-')), { ...secrets, jwt_secret: undefined } as unknown as Record<string, string>);
    expect(() => loadConfig(GatewayConfig, env)).toThrow(/JWT_SECRET_FILE: cannot read .*jwt_secret \(ENOENT\)/);
  });
});
