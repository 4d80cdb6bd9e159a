import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ensureTopics, TopicSpec } from '../kafka/ensure-topics';
import { ConcurrentServerKafka } from '../kafka/kafka-rpc';
import { kafkaTransport } from '../kafka/kafka-transport';
import { versionHeader } from './version-header';

export interface ServiceStart {
  name: string;
  module: Type<unknown>;
  brokers: string[];
  httpPort: number;
  /** Topics the process consumes or produces; created before any consumer starts. */
  topics: TopicSpec[];
  /** Set for processes that serve request-response patterns over Kafka. */
  kafkaGroupId?: string;
  instanceId: string;
  /** Adds process-specific HTTP set-up (body parsing, OpenAPI) before the server listens. */
  configure?: (app: INestApplication) => void;
}

/**
 * Starts one tailsync process: its topics, its HTTP side (health, metrics and, for the
 * gateway, the REST API) and, for services, its Kafka request-response server.
 */
export async function startService(start: ServiceStart): Promise<INestApplication> {
  await ensureTopics(start.brokers, start.topics);
  const app = await NestFactory.create(start.module, { bufferLogs: true, bodyParser: !start.configure });
  app.useLogger(app.get(Logger));
  app.use(versionHeader);
  start.configure?.(app);
  app.enableShutdownHooks();
  if (start.kafkaGroupId) {
    const { options } = kafkaTransport({ brokers: start.brokers, clientId: `${start.name}-${start.instanceId}`, groupId: start.kafkaGroupId });
    app.connectMicroservice({ strategy: new ConcurrentServerKafka(options ?? {}) }, { inheritAppConfig: true });
    await app.startAllMicroservices();
  }
  await app.listen(start.httpPort, process.env.HOST ?? '0.0.0.0');
  app.get(Logger).log({ msg: `${start.name} listening`, port: start.httpPort, instance: start.instanceId });
  return app;
}

/** Prints a start-up failure (e.g. a bad setting) as one clear line and exits non-zero. */
export function exitOnStartFailure(name: string) {
  return (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name} failed to start: ${message}\n`);
    process.exit(1);
  };
}
