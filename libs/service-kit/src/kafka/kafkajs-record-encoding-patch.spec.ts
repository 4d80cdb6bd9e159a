/**
 * The kafkajs record-encoding patch: the same bytes as published kafkajs 2.2.4 (its output for
 * fixtures/kafkajs-records.ts, kept in fixtures/kafkajs-encoding.json), and messages that the real
 * Kafka broker the test command starts (`KAFKA_BROKERS`) takes and gives back intact.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { testKafka } from './test-kafka.test-support';
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from './ensure-topics';
import { consumeFromStart } from './fixtures/consume-from-start';
import published from './fixtures/kafkajs-encoding.json';
import { crcLengths, records, seededBytes, uvarints, varints, type KafkajsRecordInput } from './fixtures/kafkajs-records';

const connection = testKafka('kafkajs-record-encoding-patch.spec.ts');

type Encoded = { buffer: Buffer; buf: Buffer; offset: number };
const record = require('kafkajs/src/protocol/recordBatch/record/v0') as ((input: KafkajsRecordInput) => Encoded) & { tailsyncPatch?: string };
const crc32c = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;
const Encoder = require('kafkajs/src/protocol/encoder') as new () => {
  writeVarInt(v: number): Encoded;
  writeUVarInt(v: number): Encoded;
  writeEncoderArray(v: unknown[]): Encoded;
};

const publishedRecords = published.records as Record<string, string>;

describe('kafkajs record-encoding patch', () => {
  it('is applied, and the reference covers every record input', () => {
    expect(record.tailsyncPatch).toBe('record-encoding');
    expect(Object.keys(publishedRecords)).toEqual(records.map(([name]) => name));
  });

  it('computes the CRC-32C of record batches as published kafkajs does (every length to 300, up to 1 MB)', () => {
    expect(published.crc32c.map(([length]) => length)).toEqual(crcLengths);
    for (const [length, crc] of published.crc32c) expect([length, crc32c(seededBytes(length, length + 1))]).toEqual([length, crc]);
    // The standard check value of CRC-32C (Castagnoli): "123456789" → 0xE3069283.
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it.each(records)('encodes %s as published kafkajs does', (name, input) => {
    expect(record(input).buffer.toString('hex')).toBe(publishedRecords[name]);
  });

  it('encodes a record the same the second time (header names are kept after the first)', () => {
    const [name, input] = records[1];
    expect([record(input).buffer.toString('hex'), record(input).buffer.toString('hex')]).toEqual([publishedRecords[name], publishedRecords[name]]);
  });

  it('writes varints as published kafkajs does', () => {
    expect(varints.map((v) => [v, new Encoder().writeVarInt(v).buffer.toString('hex')])).toEqual(published.varints);
    expect(uvarints.map((v) => [v, new Encoder().writeUVarInt(v).buffer.toString('hex')])).toEqual(published.uvarints);
  });

  it('copies an array of encoded records one after the other, past the first buffer size, and refuses what is not an encoder', () => {
    const all = new Encoder().writeEncoderArray(records.map(([, input]) => record(input))).buffer;
    expect(all.toString('hex')).toBe(records.map(([name]) => publishedRecords[name]).join(''));
    expect(new Encoder().writeEncoderArray([]).buffer.length).toBe(0);
    expect(() => new Encoder().writeEncoderArray([record(records[0][1]), { buf: 'x' }])).toThrow('all values should be an instance of Encoder[]');
  });

  it('sends messages the broker stores and gives back intact (keys, values, headers, order)', async () => {
    const topic = `test.kafkajs-records.${randomBytes(4).toString('hex')}`;
    await ensureTopics(connection, [{ topic, numPartitions: 1 }]);
    const kafka = new Kafka({ ...connection, clientId: 'record-encoding-spec', logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    const sent = Array.from({ length: 500 }, (_, i) => ({
      key: `acme:${i}`,
      value: JSON.stringify({ i, text: '✈'.repeat(i % 50), pad: 'x'.repeat(i * 7) }),
      headers: { 'event-type': i % 2 ? 'TailCreated' : 'MappingAdded', 'event-id': `id-${i}` },
    }));
    try {
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: sent.slice(0, 250) });
      await producer.send({ topic, acks: -1, messages: sent.slice(250) });
    } finally {
      await producer.disconnect();
    }
    const received = (await consumeFromStart(kafka, topic, sent.length)).map((r) => r.message);
    expect(
      received.map((m) => ({
        key: m.key?.toString(),
        value: m.value?.toString(),
        headers: { 'event-type': m.headers?.['event-type']?.toString(), 'event-id': m.headers?.['event-id']?.toString() },
      })),
    ).toEqual(sent);
    expect(received.map((m) => Number(m.offset))).toEqual(sent.map((_, i) => i));
  }, 40_000);
});
