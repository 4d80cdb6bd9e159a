import type { KafkaConfig } from 'kafkajs';
import { FAILOVER_RETRY } from './failover-retry';

/**
 * How long a request to a broker may go unanswered before kafkajs gives up on it, closes the
 * broker's connections (our `request-timeout` patch) and retries with metadata from another
 * broker: a broker cut off the network or hung answers nothing, and its partitions
 * move only once the controller has fenced it, `broker.session.timeout.ms` (9 s) after its last
 * heartbeat. Just over that: a request to a cut leader is retried about when a new leader exists,
 * and a healthy leader's acks=all answer that waits for a lost follower to leave the in-sync set
 * (the same 9 s) still comes in time. kafkajs's 30 s held every send and fetch to a cut broker
 * for 30 s.
 */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * How long a connection (TCP, and TLS when used) may take: a broker that drops packets is
 * noticed within it. Well below the 9 s fence, with room for a TLS handshake on a loaded host
 * (kafkajs's 1 s is tight there).
 */
export const CONNECTION_TIMEOUT_MS = 3_000;

/**
 * The kafkajs client options of the clients that carry tailsync's events (the relay, the
 * dispatcher's consumers and producers): they notice a lost or cut-off broker within seconds and
 * retry through the leader change (FAILOVER_RETRY). `new Kafka({ ...connection, clientId, ...FAILOVER_CLIENT })`.
 */
export const FAILOVER_CLIENT = {
  retry: FAILOVER_RETRY,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionTimeout: CONNECTION_TIMEOUT_MS,
} as const satisfies Partial<KafkaConfig>;
