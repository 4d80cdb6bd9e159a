import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeKafkaConnection, kafkaConnection, librdkafkaProperties } from './kafka-connection';

const dir = mkdtempSync(join(tmpdir(), 'kafka-connection-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const SECRET = 'pa55-w0rd-never-shown';
const failure = (settings: Record<string, string>) => {
  try {
    kafkaConnection(settings);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('kafkaConnection accepted the settings');
};

describe('Kafka client settings', () => {
  it('connects as before with none set: PLAINTEXT, no credentials', () => {
    expect(kafkaConnection({})).toEqual({ brokers: ['127.0.0.1:9092'] });
    expect(kafkaConnection({ KAFKA_BROKERS: 'a:1,b:2' })).toEqual({ brokers: ['a:1', 'b:2'] });
  });

  it.each(['scram-sha-512', 'scram-sha-256', 'plain'])('takes SASL %s with a password', (mechanism) => {
    const connection = kafkaConnection({ KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'reader', KAFKA_SASL_PASSWORD: SECRET });
    expect(connection.sasl).toEqual({ mechanism, username: 'reader', password: SECRET });
    expect(connection.ssl).toBeUndefined();
  });

  it('takes the password from KAFKA_SASL_PASSWORD_FILE, without its final newline', () => {
    const connection = kafkaConnection({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'product', KAFKA_SASL_PASSWORD_FILE: file('password', `${SECRET}\n`) });
    expect(connection.sasl?.password).toBe(SECRET);
  });

  it('takes TLS with the system CAs, or with KAFKA_SSL_CA_FILE', () => {
    expect(kafkaConnection({ KAFKA_SSL: 'true' }).ssl).toBe(true);
    const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\n');
    expect(kafkaConnection({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca }).ssl).toEqual({ ca: [Buffer.from('-----BEGIN CERTIFICATE-----\n')] });
    expect(kafkaConnection({ KAFKA_SSL: 'false' }).ssl).toBeUndefined();
  });

  it.each([
    [{ KAFKA_BROKERS: 'kafka' }, 'KAFKA_BROKERS must be a comma list of host:port'],
    [{ KAFKA_SSL: 'yes' }, 'KAFKA_SSL must be true or false'],
    [{ KAFKA_SSL_CA_FILE: '/etc/hosts' }, 'KAFKA_SSL_CA_FILE is set but KAFKA_SSL is not true'],
    [{ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' }, 'KAFKA_SSL_CA_FILE /nonexistent/ca.pem cannot be read (ENOENT)'],
    [{ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: SECRET }, 'KAFKA_SASL_MECHANISM must be one of scram-sha-512, scram-sha-256, plain'],
    [{ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: SECRET }, 'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=plain'],
    [{ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' }, 'KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE is required with KAFKA_SASL_MECHANISM=plain'],
    [{ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: SECRET, KAFKA_SASL_PASSWORD_FILE: '/etc/hosts' }, 'set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both'],
    [{ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD_FILE: '/nonexistent/pw' }, 'KAFKA_SASL_PASSWORD_FILE /nonexistent/pw cannot be read (ENOENT)'],
    [{ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: SECRET }, 'KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD set but KAFKA_SASL_MECHANISM is not'],
  ])('refuses %j naming the setting and never showing the password', (settings, message) => {
    const text = failure(settings as Record<string, string>);
    expect(text).toContain(message);
    expect(text).not.toContain(SECRET);
  });

  it('is described by where it goes and as whom, never with the password', () => {
    const connection = kafkaConnection({ KAFKA_BROKERS: 'k:9096', KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'tail-sync', KAFKA_SASL_PASSWORD: SECRET });
    expect(describeKafkaConnection(connection)).toBe('k:9096 SASL_SSL as tail-sync (scram-sha-512)');
    expect(describeKafkaConnection(kafkaConnection({}))).toBe('127.0.0.1:9092 PLAINTEXT');
  });

  it('gives the same settings as librdkafka properties for clients that are not kafkajs', () => {
    const ca = file('ca2.pem', 'x');
    expect(librdkafkaProperties({ KAFKA_BROKERS: 'k:1', KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca, KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'reader', KAFKA_SASL_PASSWORD: SECRET })).toEqual({
      'bootstrap.servers': 'k:1',
      'security.protocol': 'SASL_SSL',
      'ssl.ca.location': ca,
      'sasl.mechanisms': 'SCRAM-SHA-256',
      'sasl.username': 'reader',
      'sasl.password': SECRET,
    });
    expect(librdkafkaProperties({ KAFKA_BROKERS: 'k:1' })).toEqual({ 'bootstrap.servers': 'k:1', 'security.protocol': 'PLAINTEXT' });
  });
});
