import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeEnvironment, loadConfig, newServiceKeys, unknownSettings, withSecretFiles } from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from './webhook-dispatcher.config';

describe('webhook-dispatcher in docker-compose.yml', () => {
  it('sets every setting the dispatcher requires, valid, and no setting it does not know', () => {
    const secrets = { webhook_secret_key: Buffer.alloc(32, 7).toString('base64'), postgres_webhook_dispatcher_password: 'dispatcher-database-password', service_verify_key: newServiceKeys().SERVICE_VERIFY_KEY, kafka_webhook_dispatcher_password: 'dispatcher-kafka-password' };
    const env = withSecretFiles(composeEnvironment('webhook-dispatcher', {}), mkdtempSync(join(tmpdir(), 'dispatcher-secrets-')), secrets);
    expect(unknownSettings(env, WebhookDispatcherConfig)).toEqual([]);
    expect(loadConfig(WebhookDispatcherConfig, env)).toMatchObject({
      WEBHOOK_SECRET_KEY: secrets.webhook_secret_key, WEBHOOK_ATTEMPT_TIMEOUT_MS: 10_000, WEBHOOK_DISPATCHER_GRPC_PORT: 50051, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'webhook-dispatcher',
      DATABASE_URL: 'postgres://tailsync_webhook_dispatcher:dispatcher-database-password@postgres:5432/tailsync',
    });
    expect(env.KAFKA_SASL_PASSWORD_FILE).toMatch(/kafka_webhook_dispatcher_password$/);
  });
});
