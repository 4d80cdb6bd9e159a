import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaClientsPath, principalSettings, readKafkaClients } from '../kafka/kafka-clients-file';
import type { Principal } from '../kafka/principals';
import { REPO_ROOT } from '../stack/infrastructure';

/**
 * Settings for an operator command: the environment first, then what the local stack keeps
 * (`.data/stack/secrets.json`, its embedded PostgreSQL), so commands work beside `npm start`.
 */
export function stackEnv(): Record<string, string> {
  const secretsFile = join(REPO_ROOT, '.data', 'stack', 'secrets.json');
  const kept = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  const pgPort = process.env.EMBEDDED_POSTGRES_PORT ?? '54329';
  return {
    ...kept,
    DATABASE_URL: `postgres://tailsync:tailsync-local@127.0.0.1:${pgPort}/tailsync`,
    BASE_URL: `http://localhost:${process.env.PORT ?? '3000'}`,
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
  };
}

/**
 * Kafka client settings for a command: the environment's when it names a broker, otherwise, beside
 * `npm start`, those of one principal of its broker (`.data/stack/kafka-clients.json`).
 */
export function cliKafkaSettings(principal: Principal): NodeJS.ProcessEnv {
  const file = kafkaClientsPath(join(REPO_ROOT, '.data', 'stack'));
  if (process.env.KAFKA_BROKERS || process.env.KAFKA_SASL_MECHANISM || !existsSync(file)) return process.env;
  return { ...process.env, ...principalSettings(readKafkaClients(file), principal) };
}
