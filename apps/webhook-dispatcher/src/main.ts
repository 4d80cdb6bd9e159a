import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { TOPICS, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import { brokerList, exitOnStartFailure, loadConfig, requestReplyTopics, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { DispatcherRuntime } from './dispatcher.runtime';

async function main() {
  const config = loadConfig(WebhookDispatcherConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  const runtime = new DispatcherRuntime(config, instanceId);
  await runtime.migrate();
  await startService({
    name: 'webhook-dispatcher',
    module: appModule(runtime),
    brokers: brokerList(config),
    httpPort: config.WEBHOOK_DISPATCHER_HTTP_PORT,
    kafkaGroupId: 'webhook-dispatcher',
    instanceId,
    topics: [
      ...requestReplyTopics(Object.values(WEBHOOK_PATTERNS)),
      { topic: TOPICS.riskAssessmentExecuted, numPartitions: 6 },
      { topic: TOPICS.riskAssessmentExecutedDlq, numPartitions: 1 },
      { topic: TOPICS.webhookSubscriptions, numPartitions: 3 },
    ],
  });
}

main().catch(exitOnStartFailure('webhook-dispatcher'));
