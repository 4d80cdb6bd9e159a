/**
 * `npm run cli -- publish-risk-assessment --domain acme [--data '{"score":3}'] [--count N] [--brokers host:port,…]`
 *
 * Publishes Product.RiskAssessmentExecuted event(s) for a domain to `product.risk-assessment-executed`
 * (key = domain), the way the product that runs risk assessments does, so the webhook side can be
 * tried by hand. Prints one line per event: its event id (the `Webhook-Id` your receiver will see).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { RISK_ASSESSMENT_EXECUTED_TOPIC, type RiskAssessmentExecutedMessage } from '@tailsync/contracts';
import { describeKafkaConnection, idempotentProducer, kafkaAccessFailure, kafkaConnection, type KafkaConnection, validTraceparent } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import { cliKafkaSettings } from './stack-env';

export interface PublishOptions {
  kafka: KafkaConnection;
  domain: string;
  data?: Record<string, unknown>;
  count?: number;
  topic?: string;
  /** A W3C `traceparent` header on every message: the deliveries' spans and callbacks join that trace. */
  traceparent?: string;
}

const DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Publishes `count` events (default 1) in one produce request; returns them. */
export async function publishRiskAssessments(options: PublishOptions): Promise<RiskAssessmentExecutedMessage[]> {
  const count = options.count ?? 1;
  const events: RiskAssessmentExecutedMessage[] = Array.from({ length: count }, () => ({
    eventId: randomUUID(),
    domain: options.domain,
    occurredAt: new Date().toISOString(),
    data: options.data ?? {},
  }));
  const kafka = new Kafka({ ...options.kafka, clientId: 'tailsync-cli', logLevel: logLevel.NOTHING, retry: { retries: 5 } });
  const producer = idempotentProducer(kafka);
  await producer.connect();
  try {
    for (let i = 0; i < events.length; i += 5000) {
      await producer.send({
        topic: options.topic ?? RISK_ASSESSMENT_EXECUTED_TOPIC.topic,
        acks: -1,
        messages: events.slice(i, i + 5000).map((e) => ({
          key: e.domain, value: JSON.stringify(e), ...(options.traceparent ? { headers: { traceparent: options.traceparent } } : {}),
        })),
      });
    }
  } finally {
    await producer.disconnect();
  }
  return events;
}

export const PUBLISH_USAGE = `usage: npm run cli -- publish-risk-assessment --domain <domain> [--data '<json object>'] [--count <n>] [--traceparent <w3c>] [--brokers <host:port,…>]
  Publishes Product.RiskAssessmentExecuted event(s) to ${RISK_ASSESSMENT_EXECUTED_TOPIC.topic} (key = domain).
  --domain   the domain of the events (required)
  --data     the event's data, a JSON object (default {})
  --count    how many events (default 1, at most 100000)
  --traceparent  a W3C traceparent header on the events (their deliveries join that trace)
  --brokers  Kafka brokers (default $KAFKA_BROKERS or 127.0.0.1:9092)
  Connects with the KAFKA_SSL, KAFKA_SSL_CA_FILE and KAFKA_SASL_* settings of the environment
  (a principal that may write the topic, such as \`product\`); beside \`npm start\`, as its \`product\`.`;

export async function publishRiskAssessmentCommand(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      domain: { type: 'string' },
      data: { type: 'string' },
      count: { type: 'string' },
      traceparent: { type: 'string' },
      brokers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    out(PUBLISH_USAGE);
    return 0;
  }
  const fail = (message: string) => {
    process.stderr.write(`${message}\n${PUBLISH_USAGE}\n`);
    return 2;
  };
  if (!values.domain || !DOMAIN.test(values.domain)) return fail('--domain is required: lowercase letters, digits and dashes');
  let data: Record<string, unknown> = {};
  if (values.data !== undefined) {
    try {
      data = JSON.parse(values.data);
    } catch {
      return fail('--data must be JSON');
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('--data must be a JSON object');
  }
  if (values.traceparent !== undefined && validTraceparent(values.traceparent) === undefined) {
    return fail('--traceparent must be a W3C traceparent: 00-<32 hex>-<16 hex>-<2 hex>');
  }
  const count = values.count === undefined ? 1 : Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) return fail('--count must be an integer from 1 to 100000');
  const kafka = kafkaConnection({ ...cliKafkaSettings('product'), ...(values.brokers ? { KAFKA_BROKERS: values.brokers } : {}) });
  const brokers = kafka.brokers;
  const started = Date.now();
  let events: RiskAssessmentExecutedMessage[];
  try {
    events = await publishRiskAssessments({ kafka, domain: values.domain, data, count, traceparent: values.traceparent });
  } catch (error) {
    const denied = kafkaAccessFailure(error, kafka);
    process.stderr.write(
      denied
        ? `${denied.message}\n`
        : `publishing to ${describeKafkaConnection(kafka)} failed: ${(error as Error).message}\n` +
            `(is the stack running? webhook-dispatcher creates ${RISK_ASSESSMENT_EXECUTED_TOPIC.topic} when it starts)\n`,
    );
    return 1;
  }
  if (count <= 20) for (const e of events) out(`published ${e.eventId} for ${e.domain}`);
  else out(`published ${count} events for ${values.domain} (first ${events[0].eventId}, last ${events[count - 1].eventId})`);
  out(`in ${Date.now() - started} ms to ${RISK_ASSESSMENT_EXECUTED_TOPIC.topic} via ${brokers.join(',')}`);
  return 0;
}
