import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { TAIL_EVENTS_TOPIC, TAIL_PATTERNS } from '@tailsync/contracts';
import { kafkaConnection, exitOnStartFailure, loadConfig, requestReplyTopics, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { TailSyncConfig } from './config/tail-sync.config';

async function main() {
  const config = loadConfig(TailSyncConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  await startService({
    name: 'tail-sync',
    module: appModule(config, instanceId),
    kafka: kafkaConnection(config),
    httpPort: config.TAIL_SYNC_HTTP_PORT,
    kafkaGroupId: 'tail-sync',
    instanceId,
    topics: [
      ...requestReplyTopics(Object.values(TAIL_PATTERNS)),
      TAIL_EVENTS_TOPIC,
    ],
  });
}

main().catch(exitOnStartFailure('tail-sync'));
