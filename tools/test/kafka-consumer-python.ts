import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensurePythonVenv, venvBin } from './python-venv';
import { TEST_VENVS } from './test-venvs';

const KAFKA_CONSUMER = TEST_VENVS.find((venv) => venv.name === 'kafka-consumer')!;

/**
 * Python with confluent-kafka (librdkafka) and jsonschema (PyPI), pinned in
 * e2e/kafka-consumer/requirements.txt: the consumer we did not write, of
 * e2e/src/independent-consumer.e2e.ts and of the compose test. Resolves to the venv's `python`.
 */
export async function ensureKafkaConsumerPython(log: (line: string) => void): Promise<string> {
  await ensurePythonVenv(KAFKA_CONSUMER.name, join(REPO_ROOT, KAFKA_CONSUMER.requirements), log);
  return venvBin(KAFKA_CONSUMER.name, KAFKA_CONSUMER.executable);
}
