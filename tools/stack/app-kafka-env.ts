import { existsSync } from 'node:fs';
import type { ServicePrincipal } from '../kafka/principals';
import { principalSettings, readKafkaClients } from '../kafka/kafka-clients-file';

/** Names the stack's kafka-clients.json in the environment of the tools, the tests and the bench. */
export const KAFKA_CLIENTS_FILE_ENV = 'TAILSYNC_KAFKA_CLIENTS_FILE';

/** The contract's principal of each app; the gateway has no Kafka client. */
export const APP_PRINCIPALS: Record<'gateway' | 'tail-sync' | 'webhook-dispatcher', ServicePrincipal | null> = {
  gateway: null,
  'tail-sync': 'tail-sync',
  'webhook-dispatcher': 'webhook-dispatcher',
};

const isKafkaSetting = (name: string) => name.startsWith('KAFKA_');

/**
 * The environment an app runs with: `env` without the Kafka settings of whoever started it (the
 * test runner and the bench connect as `admin`), then, on a broker whose principals are in a
 * kafka-clients.json (KAFKA_CLIENTS_FILE_ENV), the app's own principal with the TLS settings; on
 * any other broker, the Kafka settings `env` gives.
 */
export function withAppKafkaEnv(app: keyof typeof APP_PRINCIPALS, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const file = env[KAFKA_CLIENTS_FILE_ENV];
  if (!file || !existsSync(file)) return env;
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !isKafkaSetting(name)));
  const principal = APP_PRINCIPALS[app];
  if (!principal) return rest;
  const tls = { KAFKA_SSL: env.KAFKA_SSL, KAFKA_SSL_CA_FILE: env.KAFKA_SSL_CA_FILE };
  return { ...rest, ...tls, ...principalSettings(readKafkaClients(file), principal) };
}
