import { describeKafkaConnection, type KafkaConnection } from './kafka-connection';

/** A Kafka failure that retrying cannot fix: wrong credentials, missing rights, an untrusted certificate. */
export class KafkaAccessError extends Error {}

const AUTHORIZATION = new Set(['TOPIC_AUTHORIZATION_FAILED', 'GROUP_AUTHORIZATION_FAILED', 'CLUSTER_AUTHORIZATION_FAILED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED']);
const AUTHENTICATION = new Set(['SASL_AUTHENTICATION_FAILED', 'UNSUPPORTED_SASL_MECHANISM', 'ILLEGAL_SASL_STATE']);
const CERTIFICATE = /certificate|self[- ]signed|unable to verify|ERR_TLS|SSL routines|wrong version number/i;

interface ErrorLike {
  name?: string;
  message?: string;
  type?: string;
  code?: string;
  cause?: unknown;
  /** KafkaJSAggregateError (createTopics) holds one error per topic. */
  errors?: unknown[];
}

/**
 * Explains `error` as a KafkaAccessError naming the settings to fix when it is one of those
 * failures; `undefined` otherwise (a broker not up yet, a leader moving: worth retrying).
 * kafkajs's messages carry neither the password nor the SCRAM exchange, and neither does this.
 */
export function kafkaAccessFailure(error: unknown, connection: KafkaConnection): KafkaAccessError | undefined {
  const chain: ErrorLike[] = [];
  const pending = [error as ErrorLike | undefined];
  while (pending.length > 0 && chain.length < 20) {
    const e = pending.shift();
    if (!e || typeof e !== 'object' || chain.includes(e)) continue;
    chain.push(e);
    pending.push(e.cause as ErrorLike | undefined, ...((e.errors ?? []) as ErrorLike[]));
  }
  const where = describeKafkaConnection(connection);
  const authentication = chain.find((e) => e.name === 'KafkaJSSASLAuthenticationError' || AUTHENTICATION.has(e.type ?? ''));
  if (authentication) {
    return new KafkaAccessError(
      `Kafka at ${where} refused the credentials (${authentication.message}): ` +
        'check KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, and KAFKA_SASL_MECHANISM',
    );
  }
  const authorization = chain.find((e) => AUTHORIZATION.has(e.type ?? ''));
  if (authorization) {
    const principal = connection.sasl ? `principal ${connection.sasl.username}` : 'an unauthenticated client (KAFKA_SASL_MECHANISM is not set)';
    return new KafkaAccessError(
      `Kafka at ${where} denied ${principal} (${authorization.type}: ${authorization.message}): ` +
        'its ACLs lack a right this process needs; `npm run cli -- kafka-principals` grants the ones the contract lists, ' +
        'or KAFKA_SASL_USERNAME names the wrong principal',
    );
  }
  const tls = chain.find((e) => CERTIFICATE.test(`${e.message ?? ''} ${e.code ?? ''}`));
  if (tls) {
    return new KafkaAccessError(
      `TLS to Kafka at ${where} failed (${tls.message}): ` +
        (connection.ssl ? 'check KAFKA_SSL_CA_FILE (the CA that signed the broker certificate)' : 'the broker speaks TLS: set KAFKA_SSL=true'),
    );
  }
  return undefined;
}

/**
 * A hint for a failure that may be transient: a broker closes the connection of a client that
 * speaks neither its TLS nor its SASL, which looks the same as a broker going away.
 */
export function kafkaFailureHint(connection: KafkaConnection): string {
  const hints = [
    ...(connection.ssl ? [] : ['if the listener is TLS, set KAFKA_SSL=true']),
    ...(connection.sasl ? [] : ['if it requires SASL, set KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD']),
  ];
  return hints.length > 0 ? ` (${hints.join('; ')})` : '';
}
