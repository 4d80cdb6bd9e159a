import { join } from 'node:path';
import type { TopicReplication } from '@tailsync/service-kit/topic-replication';
import { type RunningKafka, startKafka } from '../kafka/broker';
import { kafkaClientsPath, localKafkaClients, passwordsOf, principalSettings } from '../kafka/kafka-clients-file';
import type { BrokerSecurity } from '../kafka/kraft-config';
import { testCertificateAuthority } from '../kafka/test-ca';
import { KAFKA_CLIENTS_FILE_ENV } from './app-kafka-env';

/** How the embedded broker lets clients in (`EMBEDDED_KAFKA_SECURITY`, docs/kafka-security.md). */
export const EMBEDDED_KAFKA_SECURITY = ['sasl', 'sasl_ssl', 'plaintext'] as const;
export type EmbeddedKafkaSecurity = (typeof EMBEDDED_KAFKA_SECURITY)[number];

/** How many brokers the local stack may run (`KAFKA_LOCAL_BROKERS`): one, or a cluster that outlives one lost. */
export const LOCAL_BROKER_COUNTS = [1, 3] as const;

export interface LocalKafkaOptions {
  /** The stack's data directory: the broker's data is in `kafka/` (one) or `kafka-1/`… (several), its principals in kafka-clients.json. */
  dataDir: string;
  /** Client port of the first broker; the others follow it (tools/kafka/broker.ts). */
  port: number;
  brokers: number;
  security: EmbeddedKafkaSecurity;
  /** Of tailsync's topics (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS); default: the cluster size's. */
  replication: Partial<TopicReplication>;
  log: (line: string) => void;
}

export interface LocalKafka {
  /** KAFKA_BROKERS (every broker), the admin's credentials and the clients file, the TLS settings. */
  env: Record<string, string>;
  running: RunningKafka;
}

/** `KAFKA_LOCAL_BROKERS` and `EMBEDDED_KAFKA_SECURITY`, checked; a bad value throws an error naming it. */
export function localKafkaSettings(env: NodeJS.ProcessEnv): Pick<LocalKafkaOptions, 'brokers' | 'security'> {
  const security = env.EMBEDDED_KAFKA_SECURITY || 'sasl';
  if (!(EMBEDDED_KAFKA_SECURITY as readonly string[]).includes(security)) {
    throw new Error(`EMBEDDED_KAFKA_SECURITY must be one of ${EMBEDDED_KAFKA_SECURITY.join(', ')}`);
  }
  const brokers = Number(env.KAFKA_LOCAL_BROKERS || 1);
  if (!(LOCAL_BROKER_COUNTS as readonly number[]).includes(brokers)) throw new Error(`KAFKA_LOCAL_BROKERS must be ${LOCAL_BROKER_COUNTS.join(' or ')}`);
  return { brokers, security: security as EmbeddedKafkaSecurity };
}

/**
 * The embedded Kafka of the local stack: one broker or a cluster (Maven Central artifacts), with
 * SASL/SCRAM and the contract's ACLs unless `plaintext`, the principals in
 * `<dataDir>/kafka-clients.json`, tailsync's topics replicated as the contract says.
 */
export async function startLocalKafka(opts: LocalKafkaOptions): Promise<LocalKafka> {
  const addresses = Array.from({ length: opts.brokers }, (_, i) => `127.0.0.1:${opts.port + 2 * i}`).join(',');
  const clients = opts.security === 'plaintext' ? undefined : localKafkaClients(opts.dataDir, addresses);
  // Over TLS the broker also takes PLAIN, as managed Kafka does, so that mechanism is tested too.
  const tls = clients && opts.security === 'sasl_ssl' ? { ...testCertificateAuthority(join(opts.dataDir, 'kafka-tls')), plainUsers: passwordsOf(clients) } : undefined;
  const brokerSecurity: BrokerSecurity = clients ? { kind: 'sasl', adminPassword: clients.admin.password, tls } : { kind: 'plaintext' };
  const running = await startKafka({ dataDir: join(opts.dataDir, 'kafka'), port: opts.port, nodes: opts.brokers, security: brokerSecurity });
  try {
    const env: Record<string, string> = { KAFKA_BROKERS: running.brokers, ...(tls ? { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: tls.caFile } : {}) };
    if (clients) {
      // The same code as `npm run cli -- kafka-principals`: users, ACLs and topics, at every start.
      // (Loaded here: it needs the whole service-kit, which takes a while to load.)
      const { applyKafkaPrincipals } = await import('../kafka/kafka-principals');
      await applyKafkaPrincipals(running.admin, { principals: clients, replication: opts.replication });
      Object.assign(env, principalSettings(clients, 'admin'), { [KAFKA_CLIENTS_FILE_ENV]: kafkaClientsPath(opts.dataDir) });
    }
    const listener = `${clients ? 'SASL_' : ''}${tls ? 'SSL' : 'PLAINTEXT'}`;
    const data = opts.brokers === 1 ? join(opts.dataDir, 'kafka') : join(opts.dataDir, `kafka-{1..${opts.brokers}}`);
    opts.log(
      `Apache Kafka ${running.version} (KRaft, ${opts.brokers === 1 ? 'one broker' : `${opts.brokers} brokers`}) on ${running.brokers}, ${listener}` +
        `${clients ? ` with ACLs, principals in ${kafkaClientsPath(opts.dataDir)}` : ''} (data: ${data})`,
    );
    return { env, running };
  } catch (error) {
    await running.stop();
    throw error;
  }
}
