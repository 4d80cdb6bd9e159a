import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonSchema } from '../../kafka/json-schema';
import { RISK_ASSESSMENT_EXECUTED_EVENT } from '../risk-assessment-executed/risk-assessment-executed.event';
import type { WebhookEventType } from '../webhook-event-type';
import { pythonCatalog } from './python-catalog';
import { typescriptCatalog } from './typescript-catalog';

/**
 * The generators on a registry of two event types, the second with a narrowed `data` (what an
 * event type added later would have): the TypeScript compiles and narrows on `eventName`, the
 * Python runs and its TypedDicts know which members are required.
 */
const narrowedData: JsonSchema = {
  type: 'object',
  description: 'The tail a maintenance check was planned for.',
  required: ['tail', 'due', 'checks'],
  properties: {
    tail: { type: 'string', description: 'The tail number.' },
    due: { type: 'string', format: 'date-time' },
    kind: { enum: ['A', 'C'] },
    hours: { type: ['number', 'null'] },
    checks: { type: 'array', items: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, 'done-by': { type: 'string' } } } },
    site: { type: 'object', additionalProperties: false, properties: { icao: { type: 'string' } } },
  },
};
const planned: WebhookEventType = {
  ...RISK_ASSESSMENT_EXECUTED_EVENT,
  name: 'Product.MaintenancePlanned',
  input: {
    ...RISK_ASSESSMENT_EXECUTED_EVENT.input,
    message: {
      ...RISK_ASSESSMENT_EXECUTED_EVENT.input.message,
      name: 'MaintenancePlanned',
      payload: { ...RISK_ASSESSMENT_EXECUTED_EVENT.input.message.payload, properties: { ...RISK_ASSESSMENT_EXECUTED_EVENT.input.message.payload.properties, data: narrowedData } },
    },
  },
};
const REGISTRY = [RISK_ASSESSMENT_EXECUTED_EVENT, planned];

describe('the webhook event catalog generators', () => {
  const work = mkdtempSync(join(tmpdir(), 'webhook-catalog-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('write a TypeScript union a receiver narrows on eventName, exhaustively', () => {
    writeFileSync(join(work, 'events.ts'), typescriptCatalog(REGISTRY, 'test'));
    writeFileSync(join(work, 'handler.ts'), [
      "import type { MaintenancePlannedCallback, TailsyncEvent, TailsyncEventOf } from './events';",
      'export function handle(event: TailsyncEvent): string {',
      '  const { eventName } = event;',
      '  switch (eventName) {',
      "    case 'Product.RiskAssessmentExecuted': return JSON.stringify(event.data['score']);",
      "    case 'Product.MaintenancePlanned': return event.data.tail + event.data.checks.map((c) => c.code + (c['done-by'] ?? '')).join() + (event.data.kind ?? '') + (event.data.hours ?? 0) + (event.data.site?.icao ?? '');",
      '    default: { const unhandled: never = eventName; return unhandled; }',
      '  }',
      '}',
      'export function forgets(event: TailsyncEvent): string {',
      '  const { eventName } = event;',
      '  switch (eventName) {',
      "    case 'Product.RiskAssessmentExecuted': return event.domain;",
      '    // @ts-expect-error the MaintenancePlanned case is missing',
      '    default: { const unhandled: never = eventName; return unhandled; }',
      '  }',
      '}',
      "export const one: TailsyncEventOf<'Product.MaintenancePlanned'> = { eventId: 'e', eventName: 'Product.MaintenancePlanned', occurredAt: 't', domain: 'd', data: { tail: 'N1', due: 't', checks: [] } };",
      'export const same: MaintenancePlannedCallback = one;',
      "// @ts-expect-error a required data member missing",
      "export const wrong: MaintenancePlannedCallback = { ...one, data: { tail: 'N1', checks: [] } };",
      "// @ts-expect-error a closed object takes no other member",
      "export const closed: MaintenancePlannedCallback['data']['site'] = { icao: 'LSZH', city: 'Zürich' };",
    ].join('\n'));
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--strict', '--noEmit', '--target', 'es2022', '--module', 'commonjs', join(work, 'handler.ts')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('write Python TypedDicts with the required members of each schema (on Python 3.10 too)', () => {
    writeFileSync(join(work, 'events.py'), pythonCatalog(REGISTRY, 'test'));
    const python = spawnSync('python3', ['-c', [
      'import json, sys; sys.path.insert(0, sys.argv[1]); import events as e',
      'keys = lambda t: [sorted(t.__required_keys__), sorted(t.__optional_keys__)]',
      'print(json.dumps({"names": list(e.TAILSYNC_EVENT_NAMES), "callback": keys(e.MaintenancePlannedCallback), "data": keys(e.MaintenancePlannedData),',
      '  "check": keys(e.MaintenancePlannedDataChecksItem), "open": str(e.RiskAssessmentExecutedData), "union": [t.__name__ for t in e.TailsyncEvent.__args__]}))',
    ].join('\n'), work], { encoding: 'utf8' });
    expect(python.stderr).toBe('');
    expect(JSON.parse(python.stdout)).toEqual({
      names: ['Product.RiskAssessmentExecuted', 'Product.MaintenancePlanned'],
      callback: [['data', 'domain', 'eventId', 'eventName', 'occurredAt'], []],
      data: [['checks', 'due', 'tail'], ['hours', 'kind', 'site']],
      check: [['code'], ['done-by']],
      open: 'typing.Dict[str, typing.Any]',
      union: ['RiskAssessmentExecutedCallback', 'MaintenancePlannedCallback'],
    });
  });

  it('refuse a data schema whose validity they cannot express as a type', () => {
    const conditional = { ...narrowedData, allOf: [{ required: ['kind'] }] };
    const type = { ...planned, input: { ...planned.input, message: { ...planned.input.message, payload: { ...planned.input.message.payload, properties: { ...planned.input.message.payload.properties, data: conditional } } } } };
    expect(() => typescriptCatalog([type], 'test')).toThrow('MaintenancePlannedData: the webhook event catalog has no type for `allOf`');
    expect(() => pythonCatalog([type], 'test')).toThrow('no type for `allOf`');
  });
});
