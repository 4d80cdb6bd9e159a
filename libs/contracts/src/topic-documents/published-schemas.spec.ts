import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from '../kafka/json-schema';
import { acceptanceGaps } from '../kafka/schema-compatibility';
import { schemaFileText } from '../kafka/schema-file-text';
import { currentSchemaFiles, SCHEMAS_DIR, type SchemaFile } from './published-schema-files';

const dir = join(__dirname, '..', '..', '..', '..', SCHEMAS_DIR);
const major = (version: string) => version.split('.')[0];

/** The committed versions of a message's schema (`<version>.json` or `<version>.headers.json`). */
function committedVersions(file: SchemaFile): { version: string; schema: JsonSchema }[] {
  const folder = join(dir, file.path.split('/')[0]);
  const suffix = file.path.endsWith('.headers.json') ? '.headers.json' : '.json';
  return readdirSync(folder)
    .filter((name) => name.endsWith(suffix) && (suffix === '.headers.json' || !name.endsWith('.headers.json')))
    .map((name) => ({ version: name.slice(0, -suffix.length), schema: JSON.parse(readFileSync(join(folder, name), 'utf8')) as JsonSchema }));
}

describe('published JSON Schemas (libs/contracts/schemas)', () => {
  const files = currentSchemaFiles();

  it.each(files.map((f) => [f.path, f]))('%s is committed, exactly as the code defines it', (_path, file) => {
    const target = join(dir, file.path);
    if (!existsSync(target)) throw new Error(`${file.path} is missing: run \`npm run export-schemas\``);
    if (readFileSync(target, 'utf8') !== schemaFileText(file.schema)) {
      throw new Error(`${file.path} differs from the code: a published version never changes; give the schema a new version and run \`npm run export-schemas\``);
    }
  });

  it.each(files.map((f) => [f.path, f]))('%s stays compatible with every committed version of its major', (_path, file) => {
    const gaps = committedVersions(file)
      .filter((c) => major(c.version) === major(file.version))
      .flatMap(({ version, schema }) =>
        // We produce: what we send must meet what consumers were given. We consume: what producers
        // were told to send must still be accepted.
        (file.topic.tailsync === 'send' ? acceptanceGaps(file.schema, schema) : acceptanceGaps(schema, file.schema)).map((g) => `against ${version}: ${g}`),
      );
    expect(gaps).toEqual([]);
  });
});
