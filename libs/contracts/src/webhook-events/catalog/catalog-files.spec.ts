import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_CATALOG, webhookEventCatalogFiles } from './catalog-files';

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
