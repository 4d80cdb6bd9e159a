import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensurePythonVenv, venvBin } from './python-venv';

/**
 * Python with confluent-kafka (librdkafka) and jsonschema (PyPI), pinned in
 * e2e/kafka-consumer/requirements.txt: the consumer we did not write, of
 * e2e/src/independent-consumer.e2e.ts. Resolves to the venv's `python`.
 */
export async function ensureKafkaConsumerPython(log: (line: string) => void): Promise<string> {
  await ensurePythonVenv('kafka-consumer', join(REPO_ROOT, 'e2e', 'kafka-consumer', 'requirements.txt'), log);
  return kafkaConsumerPython();
}

export function kafkaConsumerPython(): string {
  return venvBin('kafka-consumer', 'python');
}
