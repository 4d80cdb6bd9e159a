/**
 * The kafkajs idle-timer patch against the real Kafka broker the test command starts (`KAFKA_BROKERS`).
 */
import { testKafka } from './test-kafka.test-support';
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { ensureTopics } from './ensure-topics';

const connection = testKafka('kafkajs-idle-timer-patch.spec.ts');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { tailsyncPatch?: string; prototype: { checkPendingRequests(): void } };

const topic = `test.kafkajs-idle.${randomBytes(4).toString('hex')}`;

describe('kafkajs idle-timer patch', () => {
  const kafka = new Kafka({ ...connection, clientId: 'idle-timer-spec', logLevel: logLevel.NOTHING });
  let producer: Producer;

  beforeAll(async () => {
    await ensureTopics(connection, [{ topic, numPartitions: 1 }]);
    // One request in flight at a time per connection: concurrent sends must wait in the queue.
    producer = kafka.producer({ allowAutoTopicCreation: false, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    jest.restoreAllMocks();
  });

  it('is applied', () => {
    expect(RequestQueue.tailsyncPatch).toBe('idle-timer');
  });

  it('leaves a connection with nothing queued asleep', async () => {
    await producer.send({ topic, messages: [{ value: 'wake the connection' }] });
    const checks = jest.spyOn(RequestQueue.prototype, 'checkPendingRequests');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Unpatched, the queue checked itself every millisecond or so: hundreds of times in 500 ms.
    expect(checks.mock.calls.length).toBeLessThan(5);
    checks.mockRestore();
  });

  it('still sends every request that had to wait in the queue', async () => {
    const sends = Array.from({ length: 30 }, (_, i) => producer.send({ topic, messages: [{ value: `queued ${i}` }] }));
    const results = await Promise.all(sends);
    expect(results.every((r) => r[0].errorCode === 0)).toBe(true);
  });
});
