/**
 * Creates or updates SCRAM users over the Kafka protocol (AlterUserScramCredentials, KIP-554), as
 * `kafka-configs.sh --alter --add-config 'SCRAM-SHA-512=[…]' --entity-type users` does: kafkajs
 * 2.2.4 has no API for it, so the request is sent on an authenticated kafkajs connection.
 * Only the salted password crosses the wire, never the password; nothing here is logged.
 */
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaConnection } from '@tailsync/service-kit';
import { createCluster } from './kafkajs-cluster';

export type ScramMechanism = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';
const MECHANISM_CODE: Record<ScramMechanism, number> = { 'SCRAM-SHA-256': 1, 'SCRAM-SHA-512': 2 };
const DIGEST: Record<ScramMechanism, { name: string; bytes: number }> = {
  'SCRAM-SHA-256': { name: 'sha256', bytes: 32 },
  'SCRAM-SHA-512': { name: 'sha512', bytes: 64 },
};
/** Kafka's bounds are 4096..16384; 8192 is what its docs use. */
export const SCRAM_ITERATIONS = 8192;
const API_KEY = 51; // AlterUserScramCredentials, version 0 (flexible encoding)

export interface ScramUser {
  name: string;
  password: string;
}

interface AlterResult {
  user: string;
  errorCode: number;
  errorMessage: string | null;
}

/**
 * How long the operator's admin commands wait for a broker to connect and authenticate: they run
 * once, often from far away (a managed cluster, a host through Docker's port publishing, TLS),
 * where kafkajs's defaults (1 s to connect) give up on a broker that is merely slow.
 */
export const ADMIN_CLIENT_TIMEOUTS = { connectionTimeout: 10_000, authenticationTimeout: 10_000 } as const;

/** Sets each user's credentials for every mechanism given (both by default). */
export async function upsertScramUsers(connection: KafkaConnection, users: ScramUser[], mechanisms: ScramMechanism[] = ['SCRAM-SHA-512', 'SCRAM-SHA-256']): Promise<void> {
  const kafka = new Kafka({ ...connection, clientId: 'tailsync-kafka-principals', logLevel: logLevel.NOTHING, ...ADMIN_CLIENT_TIMEOUTS, retry: { retries: 3 } });
  const cluster = createCluster(kafka);
  await cluster.connect();
  try {
    await cluster.refreshMetadata();
    const broker = await cluster.findControllerBroker();
    const wire = await broker.connectionPool.getConnection();
    const failed: AlterResult[] = [];
    // Kafka takes one change per user per request: one request per mechanism.
    for (const mechanism of mechanisms) {
      const upsertions = users.map((user) => upsertion(user, mechanism));
      const results = (await wire.send({ request: alterRequest(upsertions), response: alterResponse })) as AlterResult[];
      failed.push(...results.filter((r) => r.errorCode !== 0));
    }
    if (failed.length > 0) {
      throw new Error(`Kafka refused to set SCRAM credentials: ${failed.map((r) => `${r.user}: error ${r.errorCode} ${r.errorMessage ?? ''}`.trim()).join('; ')}`);
    }
  } finally {
    await cluster.disconnect();
  }
}

interface Upsertion {
  name: string;
  mechanism: number;
  iterations: number;
  salt: Buffer;
  saltedPassword: Buffer;
}

/** SCRAM's SaltedPassword = Hi(password, salt, i), PBKDF2 with the mechanism's HMAC (RFC 5802). */
function upsertion(user: ScramUser, mechanism: ScramMechanism): Upsertion {
  const salt = randomBytes(32);
  const digest = DIGEST[mechanism];
  return {
    name: user.name,
    mechanism: MECHANISM_CODE[mechanism],
    iterations: SCRAM_ITERATIONS,
    salt,
    saltedPassword: pbkdf2Sync(Buffer.from(user.password, 'utf8'), salt, SCRAM_ITERATIONS, digest.bytes, digest.name),
  };
}

const uvarint = (value: number): Buffer => {
  const bytes: number[] = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
};
const compactBytes = (value: Buffer): Buffer => Buffer.concat([uvarint(value.length + 1), value]);
const int8 = (v: number) => Buffer.from([v]);
const int32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};
const NO_TAGS = uvarint(0);

/**
 * Request v0: [deletions] [upsertions] TAG_BUFFER, compact encodings. kafkajs writes the v1 request
 * header (ending with the client id); the empty tag buffer first makes it the v2 header flexible
 * requests need.
 */
function alterRequest(upsertions: Upsertion[]) {
  const body = Buffer.concat([
    NO_TAGS, // request header v2: its tagged fields
    uvarint(0 + 1), // no deletions
    uvarint(upsertions.length + 1),
    ...upsertions.flatMap((u) => [
      compactBytes(Buffer.from(u.name, 'utf8')),
      int8(u.mechanism),
      int32(u.iterations),
      compactBytes(u.salt),
      compactBytes(u.saltedPassword),
      NO_TAGS,
    ]),
    NO_TAGS,
  ]);
  return {
    apiKey: API_KEY,
    apiVersion: 0,
    apiName: 'AlterUserScramCredentials',
    // kafkajs's Encoder is all the request framing needs: it copies these bytes after the header.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    encode: async () => new (require('kafkajs/src/protocol/encoder'))().writeBuffer(body),
  };
}

/** Response v0 after the correlation id: TAG_BUFFER (header v1), throttle_time_ms [results] TAG_BUFFER. */
const alterResponse = {
  decode: async (payload: Buffer) => {
    let at = 0;
    const readUVarInt = () => {
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = payload[at++];
        value |= (byte & 0x7f) << shift;
        if ((byte & 0x80) === 0) return value;
      }
    };
    const skipTags = () => {
      for (let n = readUVarInt(); n > 0; n--) {
        readUVarInt();
        at += readUVarInt();
      }
    };
    const readCompactString = () => {
      const length = readUVarInt() - 1;
      if (length < 0) return null;
      const s = payload.toString('utf8', at, at + length);
      at += length;
      return s;
    };
    skipTags();
    const throttleTime = payload.readInt32BE(at);
    at += 4;
    const results: AlterResult[] = [];
    for (let n = readUVarInt() - 1; n > 0; n--) {
      const user = readCompactString() ?? '';
      const errorCode = payload.readInt16BE(at);
      at += 2;
      const errorMessage = readCompactString();
      skipTags();
      results.push({ user, errorCode, errorMessage });
    }
    return { throttleTime, results };
  },
  parse: async (decoded: { results: unknown[] }) => decoded.results,
};
