/**
 * `npm run generate:webhook-events`: writes what follows the event-type registry
 * (libs/contracts/src/webhook-events): the webhook event catalog (a JSON Schema per event type under
 * docs/api/webhook-events/, the npm package's TypeScript union and the Python package's TypedDicts),
 * and the passages of hand-written files that name the event types (a `.proto` comment, with the
 * gRPC types generated from it, the alert rules, the operators' activity contract). Commit the
 * result with the registry change; libs/contracts/src/webhook-events/catalog/catalog-files.spec.ts
 * fails until then.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED_DIR, generateGrpcTypes, registryPassageFiles, WEBHOOK_EVENT_CATALOG, webhookEventCatalogFiles } from '@tailsync/contracts';

const root = join(__dirname, '..', '..');
const files = webhookEventCatalogFiles();
// a schema of an event type no longer in the registry goes
const schemasDir = join(root, WEBHOOK_EVENT_CATALOG.schemasDir);
mkdirSync(schemasDir, { recursive: true });
for (const name of readdirSync(schemasDir)) {
  if (!files.some((file) => file.path === `${WEBHOOK_EVENT_CATALOG.schemasDir}/${name}`)) rmSync(join(schemasDir, name));
}
for (const file of [...files, ...registryPassageFiles((path) => readFileSync(join(root, path), 'utf8'))]) {
  mkdirSync(dirname(join(root, file.path)), { recursive: true });
  writeFileSync(join(root, file.path), file.text);
  process.stdout.write(`wrote ${file.path}\n`);
}
// The `.proto`'s comments are in the gRPC types too.
rmSync(GENERATED_DIR, { recursive: true, force: true });
generateGrpcTypes(GENERATED_DIR);
process.stdout.write(`wrote ${GENERATED_DIR}\n`);
