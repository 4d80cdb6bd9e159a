/**
 * `.data/<stack>/kafka-clients.json`: the principals of a local stack's broker and their passwords
 * (`{ "<principal>": { "username", "password" }, "brokers" }`, the contract's shape), generated
 * once and kept (mode 0600) so a restarted stack and the CLI find them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KafkaSettings } from '@tailsync/service-kit';
import { PRINCIPALS, type Principal } from './principals';

export interface Credentials {
  username: string;
  password: string;
}
export type KafkaClients = Record<Principal, Credentials> & { brokers: string };

export const KAFKA_CLIENTS_FILE = 'kafka-clients.json';
/** The mechanism the local brokers and compose use (SCRAM-SHA-256 works too: both are set). */
export const LOCAL_SASL_MECHANISM = 'scram-sha-512';

export const kafkaClientsPath = (dataDir: string) => join(dataDir, KAFKA_CLIENTS_FILE);

export function readKafkaClients(file: string): KafkaClients {
  const clients = JSON.parse(readFileSync(file, 'utf8')) as Partial<KafkaClients>;
  const missing = PRINCIPALS.filter((p) => !clients[p]?.username || !clients[p]?.password);
  if (missing.length > 0 || typeof clients.brokers !== 'string') {
    throw new Error(`${file} lacks ${[...missing, ...(typeof clients.brokers === 'string' ? [] : ['brokers'])].join(', ')}`);
  }
  return clients as KafkaClients;
}

/**
 * The stack's principals: the file's when it exists, otherwise new ones with random passwords
 * (or `TAILSYNC_KAFKA_<PRINCIPAL>_PASSWORD` when set), written before the broker first starts.
 */
export function localKafkaClients(dataDir: string, brokers: string): KafkaClients {
  const file = kafkaClientsPath(dataDir);
  const kept: Partial<KafkaClients> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<KafkaClients>) : {};
  const clients = { brokers } as KafkaClients;
  for (const principal of PRINCIPALS) {
    const given = process.env[`TAILSYNC_KAFKA_${principal.toUpperCase().replace(/-/g, '_')}_PASSWORD`];
    clients[principal] = { username: principal, password: given || kept[principal]?.password || randomBytes(24).toString('base64url') };
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(clients, null, 2)}\n`, { mode: 0o600 });
  return clients;
}

/** The Kafka client settings of one principal of the file (for a process's environment). */
export function principalSettings(clients: KafkaClients, principal: Principal): Required<Pick<KafkaSettings, 'KAFKA_BROKERS' | 'KAFKA_SASL_MECHANISM' | 'KAFKA_SASL_USERNAME' | 'KAFKA_SASL_PASSWORD'>> {
  return {
    KAFKA_BROKERS: clients.brokers,
    KAFKA_SASL_MECHANISM: LOCAL_SASL_MECHANISM,
    KAFKA_SASL_USERNAME: clients[principal].username,
    KAFKA_SASL_PASSWORD: clients[principal].password,
  };
}

/** Every principal's username → password, as a broker's PLAIN login module lists its users. */
export function passwordsOf(clients: KafkaClients): Record<string, string> {
  return Object.fromEntries(PRINCIPALS.map((principal) => [clients[principal].username, clients[principal].password]));
}
