/**
 * What a client outside the stack meets on the compose Kafka's EXTERNAL listener, as the attacker
 * tries it: checked on the default listener (SASL_PLAINTEXT) and on the TLS override alike.
 */
import { randomUUID } from 'node:crypto';
import { RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC, RISK_ASSESSMENT_EXECUTED_TOPIC, TOPICS } from '@tailsync/contracts';
import { kafkaAccessFailure, kafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import { produceHarmless as produceTo, withAdmin } from '../../../src/support/kafka';
import type { ComposeProject } from './compose-project';

export const externalClient = (settings: Record<string, string>) =>
  new Kafka({ ...kafkaConnection(settings), clientId: `compose-test-${randomUUID().slice(0, 8)}`, logLevel: logLevel.NOTHING, retry: { retries: 2 }, connectionTimeout: 10_000 });

/** What running `run` as `settings` ends with: `allowed`, or the refusal as the apps would report it. */
export async function attempt(settings: Record<string, string>, run: (kafka: Kafka) => Promise<unknown>): Promise<string> {
  try {
    await run(externalClient(settings));
  } catch (error) {
    return kafkaAccessFailure(error, kafkaConnection(settings))?.message ?? `refused: ${(error as Error).message}`;
  }
  return 'allowed';
}

export const listTopics = (kafka: Kafka) => withAdmin(kafka, (admin) => admin.listTopics());

/**
 * The refusals every EXTERNAL listener owes (`caFile` for the TLS override): no credentials, a
 * wrong password (never echoed), `reader` writing, `product` writing the DLQ or reading tail events.
 */
export async function expectExternalRefusals(stack: ComposeProject, caFile?: string): Promise<void> {
  const { KAFKA_SASL_MECHANISM: _mechanism, KAFKA_SASL_USERNAME: _username, KAFKA_SASL_PASSWORD: _password, ...anonymous } = stack.externalKafka('reader', caFile);
  expect(await attempt(anonymous, listTopics)).toMatch(/^refused/);
  const wrong = { ...stack.externalKafka('reader', caFile), KAFKA_SASL_PASSWORD: 'not-the-reader-password' };
  const refusedWrong = await attempt(wrong, listTopics);
  expect(refusedWrong).toContain('refused the credentials');
  expect(refusedWrong).not.toContain('not-the-reader-password');
  // reader may read tailsync.*, never write risk assessments the dispatcher would sign and send.
  expect(await attempt(stack.externalKafka('reader', caFile), produceTo(RISK_ASSESSMENT_EXECUTED_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
  expect(await attempt(stack.externalKafka('reader', caFile), produceTo(TOPICS.tailEvents))).toContain('TOPIC_AUTHORIZATION_FAILED');
  // product writes risk assessments only: it cannot read the tail events or write the DLQ.
  expect(await attempt(stack.externalKafka('product', caFile), produceTo(RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC.topic))).toContain('TOPIC_AUTHORIZATION_FAILED');
  const productReads = await attempt(stack.externalKafka('product', caFile), (kafka) => withAdmin(kafka, (admin) => admin.fetchTopicOffsets(TOPICS.tailEvents)));
  expect(productReads).toMatch(/AUTHORIZATION_FAILED|refused/);
}
