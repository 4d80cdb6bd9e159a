/**
 * `npm run export-schemas`: writes the JSON Schema file of each message's current version under
 * libs/contracts/schemas/. A file already published is never rewritten with other content: a
 * changed schema needs a new version (libs/contracts/README.md, "Evolution").
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { currentSchemaFiles, schemaFileText, SCHEMAS_DIR } from '@tailsync/contracts';

const root = join(__dirname, '..', '..');
let refused = 0;
for (const file of currentSchemaFiles()) {
  const target = join(root, SCHEMAS_DIR, file.path);
  const text = schemaFileText(file.schema);
  if (existsSync(target)) {
    if (readFileSync(target, 'utf8') !== text) {
      process.stderr.write(`${file.path}: version ${file.version} is published with other content; give the changed schema a new version\n`);
      refused++;
    }
    continue;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  process.stdout.write(`wrote ${join(SCHEMAS_DIR, file.path)}\n`);
}
process.exit(refused === 0 ? 0 : 1);
