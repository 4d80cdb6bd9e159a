/* eslint-disable @typescript-eslint/no-require-imports */
import { randomBytes, randomInt } from 'node:crypto';
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { murmur2, Murmur2Partitioner } from './murmur2-partitioner';

const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer | string) => number;

function randomText(length: number, alphabet: string[]): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));
const wide = [...ascii.slice(32, 64), 'é', 'ß', '€', '☃', '中', '😀', '𝄞', '\u{10ffff}'];

describe('murmur2 (Math.imul)', () => {
  it('hashes like kafkajs for keys of every length up to 300, in ASCII, UTF-8 and as buffers', () => {
    for (let length = 0; length <= 300; length++) {
      for (const key of [randomText(length, ascii), randomText(length, wide), randomBytes(length)]) {
        expect([key, murmur2(key)]).toEqual([key, kafkajsMurmur2(key)]);
      }
    }
  });

  it('hashes like kafkajs for the relay\'s keys and for keys around and beyond its 4 KiB scratch buffer', () => {
    const keys: string[] = [];
    for (let i = 0; i < 2_000; i++) keys.push(`domain-${i % 7}:${randomInt(1, 2 ** 48)}`);
    for (let length = 4_085; length <= 4_100; length++) {
      keys.push('a'.repeat(length), `${'a'.repeat(length - 2)}😀`, `${'b'.repeat(length - 1)}é`);
    }
    keys.push('x'.repeat(20_000), '中'.repeat(5_000));
    for (const key of keys) expect([key.slice(0, 30), key.length, murmur2(key)]).toEqual([key.slice(0, 30), key.length, kafkajsMurmur2(key)]);
  });

  it('matches the Java client on known values (Utils.murmur2 of the UTF-8 bytes)', () => {
    // From Kafka's UtilsTest#testMurmur2 (clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java).
    const cases: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, expected] of cases) expect([key, murmur2(key)]).toEqual([key, expected]);
  });
});

describe('Murmur2Partitioner', () => {
  const partitionMetadata = Array.from({ length: 6 }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: partitionId === 4 ? -1 : 1,
    replicas: [1],
    isr: [1],
  }));
  const args = (message: PartitionerArgs['message']): PartitionerArgs => ({ topic: 't', partitionMetadata, message });

  it('places keyed messages on the partitions kafkajs\'s DefaultPartitioner picks, and keeps explicit partitions', () => {
    const ours = Murmur2Partitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (let i = 0; i < 1_000; i++) {
      const message = { key: `d:${randomInt(1, 2 ** 40)}`, value: 'v' };
      expect(ours(args(message))).toBe(theirs(args(message)));
    }
    expect(ours(args({ key: 'k', value: 'v', partition: 4 }))).toBe(4);
  });

  it('spreads messages without a key over the partitions that have a leader', () => {
    const ours = Murmur2Partitioner();
    const seen = new Set(Array.from({ length: 50 }, () => ours(args({ value: 'v' }))));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 5]);
  });
});
