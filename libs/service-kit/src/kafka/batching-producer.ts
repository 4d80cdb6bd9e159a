import type { Producer, ProducerRecord, RecordMetadata } from 'kafkajs';
import { Batcher } from '../concurrency/batcher';

/**
 * Wraps a kafkajs producer so that concurrent `send` calls share produce requests: kafkajs sends
 * one request per `send`, and with many RPCs in flight (Nest replies with one `send` each) the
 * requests themselves were a large part of the broker's and the clients' CPU. Records sent while
 * a produce request is in flight go together, in one `sendBatch`, into the next.
 *
 * Records with their own acks, timeout or compression are sent as they are.
 */
export function batchingProducer(producer: Producer, maxInFlight = 2): Producer {
  const send = producer.send.bind(producer);
  const batcher = new Batcher<ProducerRecord, RecordMetadata[]>(
    async (records) => {
      const byTopic = new Map<string, ProducerRecord['messages']>();
      for (const r of records) {
        const messages = byTopic.get(r.topic);
        if (messages) messages.push(...r.messages);
        else byTopic.set(r.topic, [...r.messages]);
      }
      const metadata = await producer.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
      return records.map((r) => metadata.filter((m) => m.topicName === r.topic));
    },
    { maxInFlight },
  );
  producer.send = (record: ProducerRecord) =>
    record.acks === undefined && record.timeout === undefined && record.compression === undefined ? batcher.submit(record) : send(record);
  return producer;
}
