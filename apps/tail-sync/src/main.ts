import './tracing';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { PROTO_FILES, TAIL_EVENTS_TOPIC } from '@tailsync/contracts';
import { kafkaConnection, exitOnStartFailure, grpcTlsFiles, loadConfig, replicationSettings, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { TailSyncConfig } from './config/tail-sync.config';

async function main() {
  const config = loadConfig(TailSyncConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  await startService({
    name: 'tail-sync',
    module: appModule(config, instanceId),
    kafka: { connection: kafkaConnection(config), topics: [TAIL_EVENTS_TOPIC], replication: replicationSettings(config) },
    httpPort: config.TAIL_SYNC_HTTP_PORT,
    grpc: { protoFile: PROTO_FILES.tailSync, port: config.TAIL_SYNC_GRPC_PORT, tls: grpcTlsFiles(config) },
    instanceId,
  });
}

main().catch(exitOnStartFailure('tail-sync'));
