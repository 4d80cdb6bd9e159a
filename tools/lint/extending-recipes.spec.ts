/**
 * docs/extending.md, done: each recipe is followed on a scratch copy of the repository, with the
 * doc's own row, SQL and field lines, then the commands it names run there. The files the recipe
 * changed by hand and those the commands wrote are counted against what the doc says, and the
 * copy must still typecheck and pass the contracts library's specs (the ones that compare
 * generated files with the code). A doc that goes stale fails here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');
const DOC = readFileSync(join(REPO, 'docs/extending.md'), 'utf8');

/** The doc's section under `heading` (up to the next `## `). */
function section(heading: string): string {
  const start = DOC.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`docs/extending.md has no section '${heading}'`);
  const end = DOC.indexOf('\n## ', start + 3);
  return DOC.slice(start, end < 0 ? undefined : end);
}

function match(text: string, pattern: RegExp, what: string): RegExpMatchArray {
  const found = text.match(pattern);
  if (!found) throw new Error(`docs/extending.md no longer shows ${what} (${pattern})`);
  return found;
}

/** A copy of the repository's files (tracked, and new ones not ignored), sharing its node_modules. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tailsync-extending-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\0');
  for (const file of files) {
    if (file === '') continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(REPO, file), join(dir, file), { verbatimSymlinks: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Content hashes of every file of the copy but node_modules: what changed is compared with them. */
function snapshot(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (path === 'node_modules' || path === '.git') continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) hashes.set(path, createHash('sha1').update(readFileSync(join(dir, path))).digest('hex'));
    }
  };
  walk('');
  return hashes;
}

const changedSince = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([path, hash]) => before.get(path) !== hash).map(([path]) => path).sort();

function run(dir: string, command: string[]): void {
  // The copy's own tsconfig: under `npm test` the variable names the repository's, whose path
  // aliases would compile the repository's libs instead of the copy's edited ones.
  const env = { ...process.env, FORCE_COLOR: '0', SWC_NODE_PROJECT: join(dir, 'tsconfig.base.json') };
  const done = spawnSync(command[0], command.slice(1), { cwd: dir, encoding: 'utf8', env });
  if (done.status !== 0) throw new Error(`${command.join(' ')} failed in the scratch copy:\n${done.stdout}\n${done.stderr}`);
}

/** An `npm run <script>` of the copy, as the doc says to run it (without npm's own start-up). */
function npmRun(dir: string, script: string): void {
  const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const [node, ...args] = match(scripts[script] ?? '', /^node (.+)$/, `the script ${script}`)[1].split(' ');
  run(dir, [process.execPath, node, ...args]);
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  const before = readFileSync(join(dir, file), 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the recipe changed nothing in ${file}`);
  writeFileSync(join(dir, file), after);
}

/** Inserts `line` before the closing brace of `message <name> {`. */
const intoMessage = (name: string, line: string) => (proto: string) =>
  proto.replace(new RegExp(`(message ${name} \\{[^}]*?)(\\n\\})`), `$1\n  ${line}$2`);

jest.setTimeout(600_000);

describe('docs/extending.md, followed on a scratch copy', () => {
  let dir: string;
  const property = section('Adding an optional tail property');
  const eventType = section('Adding a webhook event type');

  beforeAll(() => {
    dir = scratchCopy();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a new optional tail property: four files by hand, six by the three commands', () => {
    expect(property).toContain('That is four files written by hand (the table, the migration, the `.proto`, the schema version)\nand six written by the three commands.');
    const before = snapshot(dir);

    // 1. The row, as the doc shows it, at the end of the table.
    const row = match(property, /```ts\n(\{ name: '(\w+)'.*\}),\n```/, 'the row')[1];
    edit(dir, 'libs/contracts/src/tail-properties.ts', (text) => text.replace(/(\n)(\] as const satisfies readonly TailPropertyDefinition\[\];)/, `\n  ${row},$1$2`));
    // 2. The migration, named after the current time.
    const sql = match(property, /`(alter table rm_tails add column if not exists [a-z_]+ \w+;)`/, 'the migration')[1];
    writeFileSync(join(dir, 'apps/tail-sync/migrations/29991231000000000_serial-number.sql'), `-- Up Migration\n\n${sql}\n`);
    // 3. The two `.proto` fields.
    const [, field, viewNumber] = match(property, /\(`(optional string \w+ = \d+;)` and `= (\d+);`\)/, 'the .proto fields');
    edit(dir, 'libs/contracts/proto/tailsync/v1/tail_sync.proto', (proto) =>
      intoMessage('TailView', field.replace(/= \d+;/, `= ${viewNumber};`))(intoMessage('TailSubmission', field)(proto)),
    );
    // 4. The Kafka schema's minor version.
    edit(dir, 'libs/contracts/src/kafka/tail-event.schema.ts', (text) =>
      text.replace(/TAIL_EVENT_SCHEMA_VERSION = '(\d+)\.(\d+)\.\d+'/, (_all, major, minor) => `TAIL_EVENT_SCHEMA_VERSION = '${major}.${Number(minor) + 1}.0'`),
    );
    const byHand = snapshot(dir);
    expect(changedSince(before, byHand)).toHaveLength(4);

    npmRun(dir, 'generate:grpc');
    npmRun(dir, 'export-schemas');
    npmRun(dir, 'api-docs');
    const written = changedSince(byHand, snapshot(dir));
    expect(written).toEqual([
      'docs/api/asyncapi.json',
      'docs/api/openapi.json',
      'libs/contracts/schemas/TailEvent/1.1.0.headers.json',
      'libs/contracts/schemas/TailEvent/1.1.0.json',
      'libs/contracts/src/grpc/generated/tailsync/v1/TailSubmission.ts',
      'libs/contracts/src/grpc/generated/tailsync/v1/TailView.ts',
    ]);
  });

  it('a new webhook event type: three files by hand, then what the commands write', () => {
    expect(eventType).toContain('### Steps (three files, then generated documents)');
    const [, name, topic] = match(eventType, /Say the type is `(Product\.\w+)` on `([\w.-]+)`/, 'the example type');
    const noun = match(eventType, /the `noun` \(`([^`]+)`\)/, 'the noun')[1];
    const folder = topic.replace(/^product\./, '');
    const pascal = name.replace(/^Product\./, '');
    const constant = folder.toUpperCase().replace(/-/g, '_');
    const camel = pascal[0].toLowerCase() + pascal.slice(1);
    const before = snapshot(dir);

    // 1 and 2: the schema and the entry, "like" the first type's, in the type's folder.
    const like = 'libs/contracts/src/webhook-events/risk-assessment-executed';
    const into = `libs/contracts/src/webhook-events/${folder}`;
    const renamed = (text: string) =>
      text
        .replace(/RISK_ASSESSMENT_EXECUTED/g, constant)
        .replace(/risk-assessment-executed/g, folder)
        .replace(/RiskAssessmentExecuted|RiskAssessments/g, pascal)
        .replace(/riskAssessmentExecuted/g, camel)
        .replace(/risk assessments?/g, noun);
    mkdirSync(join(dir, into));
    for (const kind of ['schema', 'event']) {
      writeFileSync(join(dir, into, `${folder}.${kind}.ts`), renamed(readFileSync(join(dir, like, `risk-assessment-executed.${kind}.ts`), 'utf8')));
    }
    // 3. The registry.
    edit(dir, 'libs/contracts/src/webhook-events/webhook-event-types.ts', (text) =>
      `import { ${constant}_EVENT } from './${folder}/${folder}.event';\n` +
      text.replace(/(WEBHOOK_EVENT_TYPES: readonly WebhookEventType\[\] = \[[^\]]*)\]/, `$1, ${constant}_EVENT]`),
    );
    const byHand = snapshot(dir);
    expect(changedSince(before, byHand)).toHaveLength(3);

    npmRun(dir, 'generate:webhook-events');
    npmRun(dir, 'api-docs');
    npmRun(dir, 'export-schemas');
    // "What it touches": the documents, the message's schema file and its dead letters' two, the
    // catalog's three and the passages naming the types.
    expect(eventType).toContain('`openapi.json`,\n`asyncapi.json`, the message\'s schema file and its dead letters\' two, the catalog\'s three');
    expect(changedSince(byHand, snapshot(dir))).toEqual(
      [
        'apps/gateway/src/console/assets/pages/overview.js',
        'apps/webhook-dispatcher/README.md',
        'deploy/grafana/tailsync-dashboard.json',
        'deploy/prometheus/tailsync-alerts.test.yml',
        'deploy/prometheus/tailsync-alerts.yml',
        'docs/api/asyncapi.json',
        'docs/api/openapi.json',
        `docs/api/webhook-events/${name}.json`,
        'libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto',
        `libs/contracts/schemas/${pascal}/1.0.0.json`,
        `libs/contracts/schemas/${pascal}DeadLetter/1.0.0.headers.json`,
        `libs/contracts/schemas/${pascal}DeadLetter/1.0.0.json`,
        'libs/contracts/src/admin-activity.ts',
        'libs/contracts/src/grpc/generated/tailsync/v1/DeliveryActivityReply.ts',
        'libs/webhook-signing/src/events.ts',
        'sdks/python/src/tailsync_webhooks/events.py',
      ].sort(),
    );
  });

  it('leaves a copy that typechecks and whose contracts specs pass', () => {
    run(dir, [process.execPath, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.base.json', '--noEmit']);
    run(dir, [process.execPath, 'node_modules/jest/bin/jest.js', '-c', 'libs/contracts/jest.config.js', '--ci', '--silent']);
  });
});
