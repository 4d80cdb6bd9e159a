import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError } from '../config-error';

/** The settings every Kafka client of tailsync reads (the contract's "Kafka security"). */
export interface KafkaSettings {
  KAFKA_BROKERS?: string;
  KAFKA_SSL?: string;
  KAFKA_SSL_CA_FILE?: string;
  KAFKA_SASL_MECHANISM?: string;
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
  KAFKA_SASL_PASSWORD_FILE?: string;
}

export const SASL_MECHANISMS = ['scram-sha-512', 'scram-sha-256', 'plain'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/** What a kafkajs client is constructed with besides its own options: `new Kafka({ ...connection, clientId })`. */
export interface KafkaConnection {
  brokers: string[];
  ssl?: ConnectionOptions | true;
  sasl?: SASLOptions & { mechanism: SaslMechanism; username: string; password: string };
}

export const DEFAULT_KAFKA_BROKERS = '127.0.0.1:9092';
const BROKERS = /^[^,\s]+:\d+(,[^,\s]+:\d+)*$/;

/**
 * Reads and checks the Kafka client settings (from the environment or an app's config). A bad
 * setting throws a ConfigError naming it; the message never carries a password.
 */
export function kafkaConnection(settings: KafkaSettings | NodeJS.ProcessEnv): KafkaConnection {
  const value = (name: keyof KafkaSettings) => ((settings as KafkaSettings)[name] === '' ? undefined : (settings as KafkaSettings)[name]);
  const problems: string[] = [];
  const brokers = value('KAFKA_BROKERS') ?? DEFAULT_KAFKA_BROKERS;
  if (!BROKERS.test(brokers)) problems.push('KAFKA_BROKERS must be a comma list of host:port');

  const sslSetting = value('KAFKA_SSL') ?? 'false';
  if (sslSetting !== 'true' && sslSetting !== 'false') problems.push('KAFKA_SSL must be true or false');
  const ssl = sslSetting === 'true';
  let ca: Buffer | undefined;
  const caFile = value('KAFKA_SSL_CA_FILE');
  if (caFile !== undefined) {
    if (!ssl) problems.push('KAFKA_SSL_CA_FILE is set but KAFKA_SSL is not true');
    ca = readSetting('KAFKA_SSL_CA_FILE', caFile, problems);
  }

  const sasl = saslOptions(value, problems);
  if (problems.length > 0) throw new ConfigError(`Invalid Kafka client settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return {
    brokers: brokers.split(','),
    ...(ssl ? { ssl: ca ? { ca: [ca] } : true } : {}),
    ...(sasl ? { sasl } : {}),
  };
}

function saslOptions(value: (name: keyof KafkaSettings) => string | undefined, problems: string[]): KafkaConnection['sasl'] {
  const mechanism = value('KAFKA_SASL_MECHANISM');
  const username = value('KAFKA_SASL_USERNAME');
  const password = value('KAFKA_SASL_PASSWORD');
  const passwordFile = value('KAFKA_SASL_PASSWORD_FILE');
  if (mechanism === undefined) {
    const stray = (['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE'] as const).filter((n) => value(n) !== undefined);
    if (stray.length > 0) problems.push(`${stray.join(', ')} set but KAFKA_SASL_MECHANISM is not (one of ${SASL_MECHANISMS.join(', ')})`);
    return undefined;
  }
  if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
    problems.push(`KAFKA_SASL_MECHANISM must be one of ${SASL_MECHANISMS.join(', ')}`);
    return undefined;
  }
  if (username === undefined) problems.push(`KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=${mechanism}`);
  if (password !== undefined && passwordFile !== undefined) problems.push('set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both');
  if (password === undefined && passwordFile === undefined) problems.push(`KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE is required with KAFKA_SASL_MECHANISM=${mechanism}`);
  const secret = passwordFile !== undefined ? readSetting('KAFKA_SASL_PASSWORD_FILE', passwordFile, problems)?.toString('utf8').replace(/\r?\n$/, '') : password;
  if (passwordFile !== undefined && secret === '') problems.push(`KAFKA_SASL_PASSWORD_FILE ${passwordFile} is empty`);
  if (username === undefined || secret === undefined || secret === '') return undefined;
  return { mechanism: mechanism as SaslMechanism, username, password: secret };
}

function readSetting(name: string, file: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    problems.push(`${name} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return undefined;
  }
}

/** How a connection authenticates, for logs and messages: never the password. */
export function describeKafkaConnection(connection: KafkaConnection): string {
  const who = connection.sasl ? ` as ${connection.sasl.username} (${connection.sasl.mechanism})` : '';
  return `${connection.brokers.join(',')} ${securityProtocol(connection)}${who}`;
}

/**
 * The same settings as librdkafka properties (confluent-kafka; the Java client's names), for
 * clients that are not kafkajs, such as the independent Python consumer.
 */
export function librdkafkaProperties(settings: KafkaSettings | NodeJS.ProcessEnv): Record<string, string> {
  const connection = kafkaConnection(settings);
  const properties: Record<string, string> = {
    'bootstrap.servers': connection.brokers.join(','),
    'security.protocol': securityProtocol(connection),
  };
  const caFile = (settings as KafkaSettings).KAFKA_SSL_CA_FILE;
  if (connection.ssl && caFile) properties['ssl.ca.location'] = caFile;
  if (connection.sasl) {
    properties['sasl.mechanisms'] = connection.sasl.mechanism.toUpperCase();
    properties['sasl.username'] = connection.sasl.username;
    properties['sasl.password'] = connection.sasl.password;
  }
  return properties;
}

/** Kafka's name for how a connection is secured: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL. */
export function securityProtocol(connection: KafkaConnection): string {
  return `${connection.sasl ? 'SASL_' : ''}${connection.ssl ? 'SSL' : 'PLAINTEXT'}`;
}
