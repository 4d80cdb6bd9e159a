import './tracing';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { PROTO_FILES } from '@tailsync/contracts';
import { createPool, kafkaConnection, exitOnStartFailure, grpcTlsFiles, loadConfig, replicationSettings, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { dispatcherTopics } from './config/dispatcher-settings';

async function main() {
  const config = loadConfig(WebhookDispatcherConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  const pool = createPool(config.DATABASE_URL);
  const plannedOncePool = createPool(config.DATABASE_URL, 4, 'once');
  const settings = { config, instanceId, pool, plannedOncePool };
  await startService({
    name: 'webhook-dispatcher',
    module: appModule(settings),
    kafka: { connection: kafkaConnection(config), topics: dispatcherTopics(settings), replication: replicationSettings(config) },
    httpPort: config.WEBHOOK_DISPATCHER_HTTP_PORT,
    host: config.HOST,
    grpc: { protoFile: PROTO_FILES.webhookDispatcher, port: config.WEBHOOK_DISPATCHER_GRPC_PORT, tls: grpcTlsFiles(config) },
    instanceId,
  });
}

main().catch(exitOnStartFailure('webhook-dispatcher'));
