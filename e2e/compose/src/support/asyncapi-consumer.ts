/**
 * An integrator's Kafka consumer in another language, set up the way the docs tell one to: the
 * operator makes its principal (`kafka-principals --reader NAME`), and the consumer
 * (e2e/kafka-consumer/asyncapi_consumer.py, confluent-kafka) takes everything else from the
 * AsyncAPI document the gateway serves.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPythonReport, type PythonReport } from '../../../src/support/python-report';
import { REPO_ROOT } from './compose-project';

const SCRIPT = join(REPO_ROOT, 'e2e', 'kafka-consumer', 'asyncapi_consumer.py');

/** What the consumer printed: how it connected (no password), its group, and the message it found. */
export interface AsyncApiConsumerReport {
  connection: Record<string, string>;
  group: string;
  topic: string;
  message: { partition: number; offset: number; key: string; value: Record<string, unknown> } | null;
  errors: string[];
}

/**
 * `npm run cli -- kafka-principals --reader NAME --topic …` as the operator runs it from the host,
 * as the cluster's admin (`admin` settings: KAFKA_* of the EXTERNAL listener).
 */
export function createNamedReader(admin: Record<string, string>, name: string, topics: string[], password: string, dir: string): string {
  const passwordFile = join(dir, `${name}.password`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  const result = spawnSync('npm', ['run', '-s', 'cli', '--', 'kafka-principals', '--reader', name, ...topics.flatMap((t) => ['--topic', t]), '--password-file', passwordFile], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...admin },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`kafka-principals --reader ${name} failed (${result.status}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

export interface AsyncApiConsumerOptions {
  asyncApiUrl: string;
  server: string;
  variables: Record<string, string>;
  channel: string;
  principal: string;
  password: string;
  caFile?: string;
  match: Record<string, string>;
  timeoutSeconds: number;
}

/** Runs the consumer to its end (`KAFKA_CONSUMER_PYTHON`: the venv `npm run test:compose` prepares). */
export function runAsyncApiConsumer(options: AsyncApiConsumerOptions): Promise<PythonReport<AsyncApiConsumerReport>> {
  const python = process.env.KAFKA_CONSUMER_PYTHON;
  if (!python) throw new Error('KAFKA_CONSUMER_PYTHON is not set: run the compose tests with `npm run test:compose`, which installs confluent-kafka');
  const args = [
    SCRIPT, '--asyncapi', options.asyncApiUrl, '--server', options.server, '--channel', options.channel, '--principal', options.principal,
    '--timeout', String(options.timeoutSeconds),
    ...Object.entries(options.variables).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    ...Object.entries(options.match).flatMap(([k, v]) => ['--match', `${k}=${v}`]),
    ...(options.caFile ? ['--ca-file', options.caFile] : []),
  ];
  // The password through the environment, never on a command line.
  return runPythonReport<AsyncApiConsumerReport>(python, args, { ...process.env, KAFKA_PASSWORD: options.password });
}
