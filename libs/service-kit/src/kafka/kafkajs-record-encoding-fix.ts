/**
 * kafkajs 2.2.4 (the last release) encodes each produced record wastefully: a fresh zero-filled
 * 512-byte buffer for the record and another for each header, each copied into the batch, and a
 * new `Buffer` for every varint (`writeUVarInt` fills an array, then `Buffer.from`s it). The
 * relay sends a thousand messages per bulk call; kafkajs spent 12-13 ms of CPU per thousand
 * records on this, the largest single cost in tail-sync after PostgreSQL (docs/performance.md).
 *
 * This module, once imported, makes the same bytes (a spec checks them against kafkajs's own
 * encoder) at about a third of the cost:
 * - varints are written in place into the encoder's buffer;
 * - a batch's records are copied into a buffer grown once to their total size (kafkajs grew it by
 *   doubling, and took a new Buffer view of every record to copy it);
 * - a record, headers included, is written into one buffer of its exact size;
 * - a batch's CRC-32C is computed natively (`@node-rs/crc32`, SSE4.2 where available): kafkajs's
 *   byte-at-a-time table loop took ~1.4 ms per 1,000 relay messages (450 KB).
 * kafkajs's record and CRC-32C modules are replaced in the require cache; their only users, the
 * produce request (v3, which v4-v7 reuse) and its record batch, load them on the first send, so
 * importing this before any send is enough.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { crc32c } from '@node-rs/crc32';

interface KafkajsEncoder {
  buf: Buffer;
  offset: number;
  readonly buffer: Buffer;
  ensureAvailable(length: number): void;
  writeInt8(value: number): KafkajsEncoder;
  writeVarInt(value: number): KafkajsEncoder;
  writeUVarInt(value: number): KafkajsEncoder;
  writeVarLong(value: unknown): KafkajsEncoder;
  writeVarIntString(value: string): KafkajsEncoder;
  writeVarIntBytes(value: unknown): KafkajsEncoder;
  writeEncoderArray(value: KafkajsEncoder[]): KafkajsEncoder;
}

interface KafkajsEncoderClass {
  new (initialSize?: number): KafkajsEncoder;
  prototype: KafkajsEncoder & { __tailsyncEncodingFix?: true };
  sizeOfVarInt(value: number): number;
  sizeOfVarLong(value: unknown): number;
  sizeOfVarIntBytes(value: unknown): number;
}

/** What kafkajs's produce request passes to its record encoder. */
export interface KafkajsRecordInput {
  offsetDelta?: number;
  timestampDelta?: number;
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

const Encoder = require('kafkajs/src/protocol/encoder') as KafkajsEncoderClass;
const RECORD_MODULE = require.resolve('kafkajs/src/protocol/recordBatch/record/v0');
const CRC32C_MODULE = require.resolve('kafkajs/src/protocol/recordBatch/crc32C');
const PRODUCE_REQUEST_MODULE = require.resolve('kafkajs/src/protocol/requests/produce/v3/request');

const proto = Encoder.prototype;
if (!proto.__tailsyncEncodingFix) {
  proto.writeUVarInt = function writeUVarInt(this: KafkajsEncoder, value: number) {
    this.ensureAvailable(5);
    const buf = this.buf;
    let offset = this.offset;
    while ((value & 0xffffff80) !== 0) {
      buf[offset++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[offset++] = value & 0x7f;
    this.offset = offset;
    return this;
  };
  proto.writeEncoderArray = function writeEncoderArray(this: KafkajsEncoder, value: KafkajsEncoder[]) {
    if (!Array.isArray(value) || value.some((v) => v == null || !Buffer.isBuffer(v.buf))) {
      throw new Error('all values should be an instance of Encoder[]');
    }
    let total = 0;
    for (const v of value) total += v.offset;
    this.ensureAvailable(total);
    for (const v of value) {
      v.buf.copy(this.buf, this.offset, 0, v.offset);
      this.offset += v.offset;
    }
    return this;
  };
  proto.__tailsyncEncodingFix = true;
}

/** One record (kafkajs `recordBatch/record/v0`), the same bytes, in one buffer of the exact size. */
export function encodeRecord({ offsetDelta = 0, timestampDelta = 0, key, value, headers = {} }: KafkajsRecordInput): KafkajsEncoder {
  const headerList: { key: string; value: Buffer | string }[] = [];
  for (const name of Object.keys(headers)) {
    const v = headers[name];
    if (Array.isArray(v)) for (const item of v) headerList.push({ key: name, value: item });
    else headerList.push({ key: name, value: v as Buffer | string });
  }
  let headersSize = Encoder.sizeOfVarInt(headerList.length);
  for (const h of headerList) {
    const keySize = Buffer.byteLength(h.key);
    headersSize += Encoder.sizeOfVarInt(keySize) + keySize + Encoder.sizeOfVarIntBytes(h.value);
  }
  const bodySize =
    1 + // attributes
    Encoder.sizeOfVarLong(timestampDelta) +
    Encoder.sizeOfVarInt(offsetDelta) +
    Encoder.sizeOfVarIntBytes(key) +
    Encoder.sizeOfVarIntBytes(value) +
    headersSize;
  const encoder = new Encoder(1);
  // Every byte is written below, so the buffer need not be zeroed (it comes from Node's pool).
  encoder.buf = Buffer.allocUnsafe(Encoder.sizeOfVarInt(bodySize) + bodySize);
  encoder
    .writeVarInt(bodySize)
    .writeInt8(0)
    .writeVarLong(timestampDelta)
    .writeVarInt(offsetDelta)
    .writeVarIntBytes(key)
    .writeVarIntBytes(value)
    .writeVarInt(headerList.length);
  for (const h of headerList) encoder.writeVarIntString(h.key).writeVarIntBytes(h.value);
  return encoder;
}

/** The CRC-32C of a record batch, as kafkajs's `recordBatch/crc32C` returns it (unsigned). */
export function batchCrc32c(buffer: Buffer): number {
  return crc32c(buffer) >>> 0;
}

/** Points the require cache's entry for `path` at `exports` (loading the original first). */
function replaceModule(path: string, exports: unknown): boolean {
  require(path);
  const cached = require.cache[path];
  if (!cached) return false;
  cached.exports = exports;
  return true;
}

function install(): boolean {
  // The produce request keeps the modules it loaded: too late once it is loaded.
  if (require.cache[PRODUCE_REQUEST_MODULE] && require.cache[RECORD_MODULE]?.exports !== encodeRecord) return false;
  return replaceModule(CRC32C_MODULE, batchCrc32c) && replaceModule(RECORD_MODULE, encodeRecord);
}

/** true when kafkajs's produce requests encode their records with {@link encodeRecord}. */
export const kafkajsRecordEncodingFixed = install();
