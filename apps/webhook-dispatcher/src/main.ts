import './tracing';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { PROTO_FILES, WEBHOOK_EVENT_TYPES, WEBHOOK_SUBSCRIPTIONS_TOPIC } from '@tailsync/contracts';
import { createPool, kafkaConnection, exitOnStartFailure, grpcTlsFiles, loadConfig, replicationSettings, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';

async function main() {
  const config = loadConfig(WebhookDispatcherConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  const pool = createPool(config.DATABASE_URL);
  const plannedOncePool = createPool(config.DATABASE_URL, 4, 'once');
  await startService({
    name: 'webhook-dispatcher',
    module: appModule({ config, instanceId, pool, plannedOncePool }),
    kafka: { connection: kafkaConnection(config), topics: [...WEBHOOK_EVENT_TYPES.flatMap((type) => [type.input, type.deadLetters]), WEBHOOK_SUBSCRIPTIONS_TOPIC], replication: replicationSettings(config) },
    httpPort: config.WEBHOOK_DISPATCHER_HTTP_PORT,
    grpc: { protoFile: PROTO_FILES.webhookDispatcher, port: config.WEBHOOK_DISPATCHER_GRPC_PORT, tls: grpcTlsFiles(config) },
    instanceId,
  });
}

main().catch(exitOnStartFailure('webhook-dispatcher'));
