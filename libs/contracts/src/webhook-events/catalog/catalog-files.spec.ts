import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RISK_ASSESSMENT_EXECUTED_EVENT } from '../risk-assessment-executed/risk-assessment-executed.event';
import { registryTexts } from '../registry-texts';
import type { WebhookEventType } from '../webhook-event-type';
import { WEBHOOK_EVENT_CATALOG, webhookEventCatalogFiles } from './catalog-files';
import { FIRST_TYPE_PASSAGES, REGISTRY_JSON_VALUES, REGISTRY_PASSAGES, registryPassageFiles } from './registry-passages';

const REPO = join(__dirname, '..', '..', '..', '..', '..');
const REGENERATE = 'run `npm run generate:webhook-events` after changing the event-type registry';

describe('the committed webhook event catalog', () => {
  const files = webhookEventCatalogFiles();

  it.each(files.map((file) => [file.path, file.text]))(`%s is what the registry generates (${REGENERATE})`, (path, text) => {
    const committed = existsSync(join(REPO, path)) ? readFileSync(join(REPO, path), 'utf8') : `${path} is missing`;
    expect(committed).toBe(text);
  });

  it(`holds a JSON Schema for every registered event type and no other (${REGENERATE})`, () => {
    const expected = files.filter((file) => file.path.startsWith(`${WEBHOOK_EVENT_CATALOG.schemasDir}/`)).map((file) => file.path.split('/').pop());
    expect(readdirSync(join(REPO, WEBHOOK_EVENT_CATALOG.schemasDir)).sort()).toEqual(expected.sort());
  });
});

describe('the passages of hand-written files that name the event types', () => {
  const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

  it.each(registryPassageFiles(read).map((file) => [file.path, file.text]))(`%s names them as the registry says (${REGENERATE})`, (path, text) => {
    expect(read(path)).toBe(text);
  });

  it('name every registered type: a second one is in each passage', () => {
    const second: WebhookEventType = {
      ...RISK_ASSESSMENT_EXECUTED_EVENT,
      name: 'Product.MaintenanceDue',
      noun: 'maintenance notice',
      input: { ...RISK_ASSESSMENT_EXECUTED_EVENT.input, topic: 'product.maintenance-due' },
      deadLetters: { ...RISK_ASSESSMENT_EXECUTED_EVENT.deadLetters, topic: 'product.maintenance-due.dlq' },
    };
    const texts = registryTexts([RISK_ASSESSMENT_EXECUTED_EVENT, second]);
    for (const passage of REGISTRY_PASSAGES) expect({ passage: passage.id, text: passage.lines(texts).join('\n') }).toEqual({ passage: passage.id, text: expect.stringMatching(/maintenance/i) });
    for (const value of REGISTRY_JSON_VALUES) expect({ path: value.path, text: value.value(texts) }).toEqual({ path: value.path, text: expect.stringMatching(/maintenance/i) });
    // A default names the first type only, whatever comes after it.
    for (const passage of FIRST_TYPE_PASSAGES) expect(passage.lines(texts).join('\n')).toContain(`'${RISK_ASSESSMENT_EXECUTED_EVENT.name}'`);
    expect(texts.eventsPlural).toBe('risk assessments and maintenance notices');
    expect(texts.deadLetterTopics).toBe('product.risk-assessment-executed.dlq or product.maintenance-due.dlq');
  });
});
