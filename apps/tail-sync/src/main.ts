import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { TAIL_PATTERNS, TOPICS } from '@tailsync/contracts';
import { brokerList, exitOnStartFailure, loadConfig, requestReplyTopics, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { TailSyncConfig } from './config/tail-sync.config';

async function main() {
  const config = loadConfig(TailSyncConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  await startService({
    name: 'tail-sync',
    module: appModule(config, instanceId),
    brokers: brokerList(config),
    httpPort: config.TAIL_SYNC_HTTP_PORT,
    kafkaGroupId: 'tail-sync',
    instanceId,
    topics: [
      ...requestReplyTopics(Object.values(TAIL_PATTERNS)),
      { topic: TOPICS.tailEvents, numPartitions: 6 },
    ],
  });
}

main().catch(exitOnStartFailure('tail-sync'));
