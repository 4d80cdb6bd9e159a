import { join } from 'node:path';
import { SCHEMAS_DIR, TAIL_EVENTS_TOPIC, tailEventKey } from '@tailsync/contracts';
import { librdkafkaProperties } from '@tailsync/service-kit';
import { principalSettings } from '@tailsync/tools/testing';
import { testKafkaClients } from './support/kafka';
import { api, newServiceAccount } from './support/accounts';
import { runPythonReport, type PythonReport } from './support/python-report';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'e2e', 'kafka-consumer', 'check_tail_events.py');

interface Report {
  messages: number;
  partitions: number[];
  events: { eventId: string; type: string; offset: number; position: string; mappedIds: string[] }[];
  errors: string[];
}

/** The consumer connects as `reader`, the principal the docs give internal services, with the run's TLS settings. */
const consumerSettings = () => ({ ...process.env, ...principalSettings(testKafkaClients(), 'reader') });

/** Runs the Python consumer (confluent-kafka) to its end; its report is parsed from stdout. */
function independentConsumer(args: string[]): Promise<PythonReport<Report>> {
  const python = process.env.KAFKA_CONSUMER_PYTHON;
  if (!python) throw new Error('KAFKA_CONSUMER_PYTHON is not set: run the suite with `npm test`, which installs confluent-kafka');
  return runPythonReport<Report>(python, [SCRIPT, ...args], { ...process.env, KAFKA_CLIENT_PROPERTIES: JSON.stringify(librdkafkaProperties(consumerSettings())) });
}

describe('tailsync.tail-events read by a consumer we did not write (Python, confluent-kafka)', () => {
  it('sees CloudEvents headers and schema-valid values, one tail in order across a renumber, a deactivation and a reactivation', async () => {
    const account = await newServiceAccount();
    const created = await api(account, 'PUT', '/Tails', { tailId: 'ext-1', tailNumber: 'NEXT1', countryCode: 'DE', passengerSeating: 180 });
    expect(created.status).toBe(201);
    const tailId = created.body.tailId as number;
    for (const [path, body] of [
      ['/Tails/ChangeTailNumber', { tailId: 'ext-1', newTailNumber: 'NEXT1-B' }],
      ['/Tails/Deactivate', { tailId: 'ext-1' }],
      ['/Tails/Reactivate', { tailId: 'ext-1' }],
      ['/Tails/ChangeTailNumber', { tailId: 'ext-1', newTailNumber: 'NEXT1-C' }],
    ] as const) {
      expect((await api(account, 'POST', path, body)).status).toBe(200);
    }
    // Another tail of the domain, changed in between: it must not show up under this tail's key.
    await api(account, 'PUT', '/Tails', { tailId: 'ext-2', tailNumber: 'NEXT2' });

    const { version, name } = TAIL_EVENTS_TOPIC.message;
    const { code, report, output } = await independentConsumer([
      '--topic', TAIL_EVENTS_TOPIC.topic,
      '--key', tailEventKey(account.domain, tailId),
      '--count', '5',
      '--schema', join(ROOT, SCHEMAS_DIR, name, `${version}.json`),
      '--headers-schema', join(ROOT, SCHEMAS_DIR, name, `${version}.headers.json`),
    ]);
    if (code !== 0 || !report) throw new Error(`the independent consumer exited with ${code}:\n${output}`);
    expect(report.errors).toEqual([]);
    expect(report.partitions).toHaveLength(1);
    expect(report.events.map((e) => e.type)).toEqual(['TailCreated', 'TailRenumbered', 'TailDeactivated', 'TailReactivated', 'TailRenumbered']);
    expect(report.events.every((e) => e.mappedIds.join() === 'ext-1')).toBe(true);
  }, 120_000);
});
