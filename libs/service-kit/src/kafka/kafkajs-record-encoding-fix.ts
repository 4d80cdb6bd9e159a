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
 * - a record, headers included, is written into one buffer of its exact size; header names are
 *   measured once per producer, and short fields are copied byte by byte (no native call);
 * - a batch's CRC-32C is computed natively (`@node-rs/crc32`, SSE4.2 where available): kafkajs's
 *   byte-at-a-time table loop took ~1.4 ms per 1,000 relay messages (450 KB).
 * kafkajs's record and CRC-32C modules are replaced in the require cache; their only users, the
 * produce request (v3, which v4-v7 reuse) and its record batch, load them on the first send, so
 * importing this before any send is enough.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { crc32c } from '@node-rs/crc32';
import { replaceModule } from './replace-module';

interface KafkajsEncoder {
  buf: Buffer;
  offset: number;
  readonly buffer: Buffer;
  ensureAvailable(length: number): void;
  writeUVarInt(value: number): KafkajsEncoder;
  writeVarLong(value: unknown): KafkajsEncoder;
  writeEncoderArray(value: KafkajsEncoder[]): KafkajsEncoder;
}

interface KafkajsEncoderClass {
  new (initialSize?: number): KafkajsEncoder;
  prototype: KafkajsEncoder & { __tailsyncEncodingFix?: true };
  sizeOfVarInt(value: number): number;
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
    this.offset = putVarint(this.buf, this.offset, value);
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

/** ZigZag of a 32-bit integer, as an unsigned number (what kafkajs's varints encode). */
const zigzag = (value: number): number => ((value << 1) ^ (value >> 31)) >>> 0;

/** Writes an unsigned varint (kafkajs's `writeUVarInt`) at `offset`; returns the offset after it. */
function putVarint(buf: Buffer, offset: number, zigzagged: number): number {
  while ((zigzagged & 0xffffff80) !== 0) {
    buf[offset++] = (zigzagged & 0x7f) | 0x80;
    zigzagged >>>= 7;
  }
  buf[offset++] = zigzagged;
  return offset;
}

/** A key, value or header as Kafka writes it: its byte length (-1 for null), then its bytes (strings as UTF-8). */
interface Field {
  data: Buffer | string | null;
  length: number;
}

function field(data: Buffer | string | null | undefined): Field {
  if (data == null) return { data: null, length: -1 };
  if (Buffer.isBuffer(data)) return { data, length: data.length };
  const text = String(data);
  return { data: text, length: Buffer.byteLength(text) };
}

/** Fields of header names: a producer uses the same few names on every message. */
const headerNames = new Map<string, Field>();
const HEADER_NAMES_KEPT = 256;

function headerNameField(name: string): Field {
  let f = headerNames.get(name);
  if (!f) {
    f = field(name);
    if (headerNames.size < HEADER_NAMES_KEPT) headerNames.set(name, f);
  }
  return f;
}

const fieldSize = (f: Field): number => Encoder.sizeOfVarInt(f.length) + Math.max(f.length, 0);

/** Below this many bytes a loop beats a call into `Buffer#write`/`copy` (headers, ids, keys). */
const SHORT_FIELD = 48;

function putField(buf: Buffer, offset: number, f: Field): number {
  offset = putVarint(buf, offset, zigzag(f.length));
  const length = f.length;
  if (length <= 0) return offset;
  const data = f.data as Buffer | string;
  if (typeof data === 'string') {
    // An equal UTF-16 and UTF-8 length means every character is ASCII: one byte each.
    if (length <= SHORT_FIELD && length === data.length) for (let i = 0; i < length; i++) buf[offset + i] = data.charCodeAt(i);
    else buf.write(data, offset, length, 'utf8');
  } else if (length <= SHORT_FIELD) for (let i = 0; i < length; i++) buf[offset + i] = data[i];
  else data.copy(buf, offset);
  return offset + length;
}

const isInt32 = (value: number): boolean => (value | 0) === value;

/**
 * One record (kafkajs `recordBatch/record/v0`), the same bytes, in one buffer of the exact size:
 * every string's UTF-8 length taken once, varints written in place, and `Long` arithmetic (kafkajs's
 * varlong) only for a timestamp delta beyond 32 bits.
 */
export function encodeRecord({ offsetDelta = 0, timestampDelta = 0, key, value, headers = {} }: KafkajsRecordInput): KafkajsEncoder {
  const headerFields: Field[] = [];
  for (const name of Object.keys(headers)) {
    const v = headers[name];
    for (const item of Array.isArray(v) ? v : [v as Buffer | string]) headerFields.push(headerNameField(name), field(item));
  }
  const keyField = field(key);
  const valueField = field(value);
  const timestamp = isInt32(timestampDelta) ? null : new Encoder().writeVarLong(timestampDelta).buffer;
  let bodySize =
    1 + // attributes
    (timestamp ? timestamp.length : Encoder.sizeOfVarInt(timestampDelta)) +
    Encoder.sizeOfVarInt(offsetDelta) +
    fieldSize(keyField) +
    fieldSize(valueField) +
    Encoder.sizeOfVarInt(headerFields.length / 2);
  for (const f of headerFields) bodySize += fieldSize(f);

  // Every byte is written below, so the buffer need not be zeroed (small ones come from Node's pool).
  const buf = Buffer.allocUnsafe(Encoder.sizeOfVarInt(bodySize) + bodySize);
  let offset = putVarint(buf, 0, zigzag(bodySize));
  buf[offset++] = 0; // attributes
  if (timestamp) offset += timestamp.copy(buf, offset);
  else offset = putVarint(buf, offset, zigzag(timestampDelta));
  offset = putVarint(buf, offset, zigzag(offsetDelta));
  offset = putField(buf, offset, keyField);
  offset = putField(buf, offset, valueField);
  offset = putVarint(buf, offset, zigzag(headerFields.length / 2));
  for (const f of headerFields) offset = putField(buf, offset, f);

  const encoder = Object.create(Encoder.prototype) as KafkajsEncoder;
  encoder.buf = buf;
  encoder.offset = offset;
  return encoder;
}

/** The CRC-32C of a record batch, as kafkajs's `recordBatch/crc32C` returns it (unsigned). */
export function batchCrc32c(buffer: Buffer): number {
  return crc32c(buffer) >>> 0;
}

function install(): boolean {
  // The produce request keeps the modules it loaded: too late once it is loaded.
  if (require.cache[PRODUCE_REQUEST_MODULE] && require.cache[RECORD_MODULE]?.exports !== encodeRecord) return false;
  return replaceModule(CRC32C_MODULE, batchCrc32c) && replaceModule(RECORD_MODULE, encodeRecord);
}

/** true when kafkajs's produce requests encode their records with {@link encodeRecord}. */
export const kafkajsRecordEncodingFixed = install();
