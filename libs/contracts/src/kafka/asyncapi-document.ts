import { API_VERSION } from '../version';
import type { JsonSchema } from './json-schema';
import { KAFKA_TOPICS, type TopicContract } from './kafka-topics';
import { NAMED_READER_GROUPS, topicPrincipals } from './topic-principals';

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
    servers: {
      kafka: {
        host: 'localhost:9092',
        protocol: 'kafka',
        description: 'The brokers of the deployment (`KAFKA_BROKERS`). Every client signs in as its own principal; broker ACLs give each only the topics and groups each channel names.',
        security: [{ $ref: '#/components/securitySchemes/scramSha512' }],
      },
    },
    defaultContentType: 'application/json',
    channels: Object.fromEntries(topics.map((t) => [t.channelId, channel(t)])),
    operations: Object.fromEntries(topics.map((t) => [t.operationId, operation(t)])),
    components: {
      securitySchemes: {
        scramSha512: {
          type: 'scramSha512',
          description: 'SASL/SCRAM-SHA-512 (`KAFKA_SASL_MECHANISM`, `KAFKA_SASL_USERNAME`, `KAFKA_SASL_PASSWORD`), one principal per service; TLS where the listener has it (`KAFKA_SSL`).',
        },
      },
      messages: Object.fromEntries(topics.map((t) => [t.message.name, message(t)])),
      schemas,
    },
  };
}
