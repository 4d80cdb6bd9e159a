/**
 * `npm run generate:webhook-events`: writes the webhook event catalog from the event-type registry
 * (libs/contracts/src/webhook-events): a JSON Schema per event type under docs/api/webhook-events/,
 * the npm package's TypeScript union and the Python package's TypedDicts. Commit the result with
 * the registry change; libs/contracts/src/webhook-events/catalog/catalog-files.spec.ts fails until then.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WEBHOOK_EVENT_CATALOG, webhookEventCatalogFiles } from '@tailsync/contracts';

const root = join(__dirname, '..', '..');
const files = webhookEventCatalogFiles();
// a schema of an event type no longer in the registry goes
const schemasDir = join(root, WEBHOOK_EVENT_CATALOG.schemasDir);
mkdirSync(schemasDir, { recursive: true });
for (const name of readdirSync(schemasDir)) {
  if (!files.some((file) => file.path === `${WEBHOOK_EVENT_CATALOG.schemasDir}/${name}`)) rmSync(join(schemasDir, name));
}
for (const file of files) {
  mkdirSync(dirname(join(root, file.path)), { recursive: true });
  writeFileSync(join(root, file.path), file.text);
  process.stdout.write(`wrote ${file.path}\n`);
}
