import { composeEnvironment, knownSettings, loadConfig, newServiceKeys } from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from './webhook-dispatcher.config';

describe('webhook-dispatcher in docker-compose.yml', () => {
  it('sets every setting the dispatcher requires, valid, and no setting it does not know', () => {
    const env = composeEnvironment('webhook-dispatcher', { WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), POSTGRES_PASSWORD: 'operator-database-password', ...newServiceKeys() });
    expect(Object.keys(env).filter((k) => !knownSettings(WebhookDispatcherConfig).has(k))).toEqual([]);
    expect(loadConfig(WebhookDispatcherConfig, env).WEBHOOK_DISPATCHER_GRPC_PORT).toBe(50051);
  });
});
