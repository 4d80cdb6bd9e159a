import { API_VERSION } from '../version';
import type { JsonSchema } from '../kafka/json-schema';
import type { TopicContract } from '../kafka/kafka-topics';
import { NAMED_READER_GROUPS, topicPrincipals } from '../kafka/topic-principals';
import { KAFKA_TOPICS } from './all-topics';

const KAFKA_BINDING_VERSION = '0.5.0';

/** Kafka's topic configuration as the AsyncAPI Kafka binding types it. */
function topicConfiguration(config: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) out[name] = name === 'cleanup.policy' ? value.split(',') : Number(value);
  return out;
}

/** The sentence of a channel's description that says which principals write and read it. */
function principalsSentence(t: TopicContract): string {
  const { write, read } = topicPrincipals(t);
  const readers = [
    ...read.map((r) => `\`${r.principal}\` (groups \`${r.groups}\`)`),
    `a named reader given this topic (\`kafka-principals --reader NAME --topic ${t.topic}\`, groups \`${NAMED_READER_GROUPS}\`)`,
  ];
  return ` Kafka principals: written by ${write.map((w) => `\`${w}\``).join(', ')}; read by ${readers.join(' and ')}; no one else.`;
}

function channel(t: TopicContract) {
  const { write, read } = topicPrincipals(t);
  return {
    address: t.topic,
    title: t.topic,
    description: t.description + principalsSentence(t),
    'x-kafka-principals': { write, read: [...read, { principal: 'NAME', groups: NAMED_READER_GROUPS, when: `kafka-principals --reader NAME --topic ${t.topic}` }] },
    messages: { [t.message.name]: { $ref: `#/components/messages/${t.message.name}` } },
    bindings: {
      kafka: {
        topic: t.topic,
        partitions: t.numPartitions,
        ...(Object.keys(t.config).length > 0 ? { topicConfiguration: topicConfiguration(t.config) } : {}),
        bindingVersion: KAFKA_BINDING_VERSION,
      },
    },
  };
}

function operation(t: TopicContract) {
  return {
    action: t.tailsync,
    title: t.operationTitle,
    description: t.operationDescription,
    channel: { $ref: `#/channels/${t.channelId}` },
    messages: [{ $ref: `#/channels/${t.channelId}/messages/${t.message.name}` }],
    ...(t.groupId ? { bindings: { kafka: { groupId: { type: 'string', enum: [t.groupId] }, bindingVersion: KAFKA_BINDING_VERSION } } } : {}),
  };
}

function message(t: TopicContract) {
  const m = t.message;
  return {
    name: m.name,
    title: m.title,
    contentType: m.contentType,
    'x-schema-version': m.version,
    ...(m.headers ? { headers: { $ref: `#/components/schemas/${m.name}.headers` } } : {}),
    payload: { $ref: `#/components/schemas/${m.name}` },
    bindings: { kafka: { key: m.key, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

/**
 * The AsyncAPI 3.0 document of tailsync's Kafka topics (served at /asyncapi.json), built from the
 * same topic and schema definitions the code uses. `action` is tailsync's: `send` on a topic
 * others consume, `receive` on one others produce to.
 */
/**
 * Every client listener takes SASL/SCRAM only (docs/kafka-security.md): a principal of its own per
 * service, both SHA variants, and ACLs deciding what each may read and write.
 */
const KAFKA_SECURITY_SCHEMES = {
  scramSha512: { type: 'scramSha512', description: 'SASL/SCRAM-SHA-512 as the principal the operator created for your service (`npm run cli -- kafka-principals`); tailsync\'s own services use it.' },
  scramSha256: { type: 'scramSha256', description: 'SASL/SCRAM-SHA-256, the same principals and passwords.' },
} as const;

const SCRAM = [{ $ref: '#/components/securitySchemes/scramSha512' }, { $ref: '#/components/securitySchemes/scramSha256' }];

/** The compose stack's EXTERNAL listener, as its settings publish it. */
const COMPOSE_LISTENER = {
  host: '{host}:{port}',
  variables: {
    host: { default: 'localhost', description: 'The name the listener advertises and its certificate names (`KAFKA_EXTERNAL_HOST`).' },
    port: { default: '9094', description: 'The port compose publishes it on (`KAFKA_EXTERNAL_PORT`).' },
  },
} as const;

/**
 * Where a client connects: the docker-compose stack's listener for clients outside it, SASL over
 * plaintext by default or over TLS with the operator's certificate (`docker-compose.kafka-tls.yml`),
 * and a deployment's own TLS cluster. A client needs nothing else but its principal's password
 * (and the CA when the certificate's is a private one).
 */
const KAFKA_SERVERS = {
  compose: {
    ...COMPOSE_LISTENER,
    protocol: 'kafka',
    description: 'The docker-compose stack\'s EXTERNAL listener as `docker-compose.yml` runs it: SASL/SCRAM without TLS (`SASL_PLAINTEXT`), for clients on the same host.',
    security: SCRAM,
  },
  'compose-tls': {
    ...COMPOSE_LISTENER,
    protocol: 'kafka-secure',
    description: 'The same listener with the TLS override (`docker-compose.kafka-tls.yml`, the operator\'s certificate for `KAFKA_EXTERNAL_HOST`): SASL/SCRAM over TLS (`SASL_SSL`); trust the operator\'s CA when it is a private one.',
    security: SCRAM,
  },
  tls: {
    host: '{bootstrap}',
    protocol: 'kafka-secure',
    description: 'A deployment\'s own cluster whose client listener is SASL_SSL: SASL/SCRAM over TLS.',
    variables: { bootstrap: { default: 'kafka.example.com:9094', description: 'The deployment\'s bootstrap server, `host:port` (`KAFKA_BROKERS`).' } },
    security: SCRAM,
  },
} as const;

export function asyncApiDocument(topics: readonly TopicContract[] = KAFKA_TOPICS): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  for (const t of topics) {
    schemas[t.message.name] = t.message.payload;
    if (t.message.headers) schemas[`${t.message.name}.headers`] = t.message.headers;
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'tailsync Kafka topics',
      version: API_VERSION,
      description:
        'The topics tailsync produces to and consumes from, for services written in any language. ' +
        'Each message\'s payload is a versioned JSON Schema (draft-07), also committed as files under libs/contracts/schemas/. ' +
        'Consumer guide and evolution rules: libs/contracts/README.md.',
    },
    servers: KAFKA_SERVERS,
    defaultContentType: 'application/json',
    channels: Object.fromEntries(topics.map((t) => [t.channelId, channel(t)])),
    operations: Object.fromEntries(topics.map((t) => [t.operationId, operation(t)])),
    components: {
      securitySchemes: KAFKA_SECURITY_SCHEMES,
      messages: Object.fromEntries(topics.map((t) => [t.message.name, message(t)])),
      schemas,
    },
  };
}
