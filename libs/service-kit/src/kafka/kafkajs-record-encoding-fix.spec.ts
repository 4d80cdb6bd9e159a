/**
 * The kafkajs record-encoding fix: the same bytes as kafkajs's own encoder, and messages that the
 * real Kafka broker the test command starts (`KAFKA_BROKERS`) takes and gives back intact.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from './ensure-topics';
import { consumeFromStart } from './fixtures/consume-from-start';
import { batchCrc32c, encodeRecord, kafkajsRecordEncodingFixed, type KafkajsRecordInput } from './kafkajs-record-encoding-fix';

const BROKERS = process.env.KAFKA_BROKERS?.split(',');
if (!BROKERS) throw new Error('kafkajs-record-encoding-fix.spec.ts needs KAFKA_BROKERS (a real Kafka broker)');
const brokers = BROKERS;

type Encoded = { buffer: Buffer };
type EncoderClass = new () => {
  writeVarInt(v: number): Encoded;
  writeUVarInt(v: number): Encoded;
  writeEncoderArray(v: unknown[]): Encoded;
};

interface Kafkajs {
  record: (input: KafkajsRecordInput) => Encoded;
  Encoder: EncoderClass;
  crc32c: (buffer: Buffer) => number;
}

/** kafkajs's own record encoder, Encoder class and CRC-32C, loaded afresh (unpatched) in an isolated registry. */
function unpatchedKafkajs(): Kafkajs {
  let loaded!: Kafkajs;
  jest.isolateModules(() => {
    loaded = {
      record: require('kafkajs/src/protocol/recordBatch/record/v0'),
      Encoder: require('kafkajs/src/protocol/encoder'),
      crc32c: require('kafkajs/src/protocol/recordBatch/crc32C'),
    };
  });
  return loaded;
}

const PatchedEncoder = require('kafkajs/src/protocol/encoder') as EncoderClass;

const records: [string, KafkajsRecordInput][] = [
  ['a relay message', { key: 'acme:1042', value: JSON.stringify({ type: 'TailCreated', tailNumber: 'N1042' }), headers: { 'event-type': 'TailCreated', 'event-id': 'b1f3c7a2-0000-4000-8000-000000000001' } }],
  [
    'a relay message with CloudEvents headers (short Buffer and string values, names seen before)',
    {
      key: 'acme:1042',
      value: '{}',
      headers: { 'event-type': 'TailCreated', ce_specversion: Buffer.from('1.0'), ce_type: Buffer.from('tailsync.tail.TailCreated'), ce_time: '2026-01-01T00:00:00.000Z' },
    },
  ],
  ['header values around the short-field bound (47-49 bytes, ASCII and not)', { value: 'v', headers: { a: 'x'.repeat(47), b: Buffer.alloc(48, 7), c: 'y'.repeat(49), d: 'é'.repeat(24), e: Buffer.alloc(49, 9) } }],
  ['no key, no headers', { value: 'v', offsetDelta: 7 }],
  ['a null value (tombstone)', { key: 'k', value: null }],
  ['Buffer key and value', { key: Buffer.from([0, 1, 2, 255]), value: randomBytes(300) }],
  ['a header with several values', { key: 'k', value: 'v', headers: { h: ['one', Buffer.from('two')], other: 'x' } }],
  ['multi-byte UTF-8', { key: 'clé', value: '✈ Überflug — 飞机', headers: { 'naïve': 'ü' } }],
  ['a value above 127 and 16,383 bytes (longer varints)', { key: 'k', value: 'x'.repeat(20_000), offsetDelta: 300 }],
  ['negative and large timestamp deltas', { value: 'v', timestampDelta: -5 }],
  ['a timestamp delta beyond 32 bits', { value: 'v', timestampDelta: 2 ** 40 + 3 }],
  ['an offset delta of 2^20', { value: 'v', offsetDelta: 2 ** 20 }],
];

describe('kafkajs record encoding fix', () => {
  const original = unpatchedKafkajs();

  it('is installed: produce requests use the fast record encoder and CRC-32C', () => {
    expect(kafkajsRecordEncodingFixed).toBe(true);
    expect(require('kafkajs/src/protocol/recordBatch/record/v0')).toBe(encodeRecord);
    expect(require('kafkajs/src/protocol/recordBatch/crc32C')).toBe(batchCrc32c);
  });

  it('computes the CRC-32C of record batches exactly as kafkajs does (every length to 300, up to 1 MB)', () => {
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), 4_095, 65_537, 450_000, 1_048_576];
    for (const length of lengths) {
      const buffer = randomBytes(length);
      expect([length, batchCrc32c(buffer)]).toEqual([length, original.crc32c(buffer)]);
    }
    // The standard check value of CRC-32C (Castagnoli): "123456789" → 0xE3069283.
    expect(batchCrc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it.each(records)('encodes %s exactly as kafkajs does', (_name, input) => {
    expect(encodeRecord(input).buffer.equals(original.record(input).buffer)).toBe(true);
  });

  it('writes varints exactly as kafkajs does', () => {
    const values = [0, 1, -1, 63, 64, -64, -65, 127, 128, 300, 8191, 8192, 16383, 16384, 2 ** 21, 2 ** 28, 2 ** 31 - 1, -(2 ** 31)];
    for (const v of values) {
      expect([v, new PatchedEncoder().writeVarInt(v).buffer.toString('hex')]).toEqual([v, new original.Encoder().writeVarInt(v).buffer.toString('hex')]);
    }
    for (const v of [0, 127, 128, 2 ** 31, 2 ** 32 - 1]) {
      expect([v, new PatchedEncoder().writeUVarInt(v).buffer.toString('hex')]).toEqual([v, new original.Encoder().writeUVarInt(v).buffer.toString('hex')]);
    }
  });

  it('copies an array of encoded records exactly as kafkajs does, and refuses what is not an encoder', () => {
    const inputs = records.map(([, input]) => input);
    const patched = new PatchedEncoder().writeEncoderArray(inputs.map((input) => encodeRecord(input))).buffer;
    const unpatched = new original.Encoder().writeEncoderArray(inputs.map((input) => original.record(input))).buffer;
    expect(patched.equals(unpatched)).toBe(true);
    expect(new PatchedEncoder().writeEncoderArray([]).buffer.length).toBe(0);
    expect(() => new PatchedEncoder().writeEncoderArray([encodeRecord(inputs[0]), { buf: 'x' }])).toThrow('all values should be an instance of Encoder[]');
  });

  it('sends messages the broker stores and gives back intact (keys, values, headers, order)', async () => {
    const topic = `test.kafkajs-records.${randomBytes(4).toString('hex')}`;
    await ensureTopics(brokers, [{ topic, numPartitions: 1 }]);
    const kafka = new Kafka({ clientId: 'record-encoding-spec', brokers, logLevel: logLevel.NOTHING });
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
