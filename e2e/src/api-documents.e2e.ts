/**
 * The API documents as integrators use them: what the gateway serves is exactly what is committed
 * under docs/api/ (refresh with `npm run api-docs`), the OpenAPI document is 3.1 with an id and a
 * summary per operation, the OAuth2 flow, the callback and an example of every body, and clients generated from the
 * committed document — TypeScript (openapi-typescript + openapi-fetch) and Python
 * (openapi-python-client) — make one call of each kind against the stack.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { newServiceAccount } from './support/accounts';
import { baseUrl } from './support/test-stack';
import { receiver } from './support/webhooks';

const REPO = join(__dirname, '..', '..');
const committed = (name: string) => JSON.parse(readFileSync(join(REPO, 'docs', 'api', name), 'utf8'));
const work = join(process.env.TAILSYNC_TEST_DATA ?? join(REPO, '.data', 'test'), 'api-clients');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = spawnSync(command, args, { cwd: options.cwd ?? REPO, env: { ...process.env, ...options.env }, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Runs a client program without blocking this process: the receiver its Test call reaches lives here. */
function runClient(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${out}\n${err}`))));
  });
}

/** What one generated client got from its calls (both print the same shape). */
const EXPECTED = (prefix: string) => ({
  token: 200,
  bulk: [true, false],
  list: [`${prefix}-1`, `${prefix}-2`],
  history: ['TailCreated', 'TailRenumbered'],
  problem: [404, expect.any(String)],
  subscription: 'active',
  test: [true, 200, null],
  deliveries: 200,
  deleted: 204,
});

describe('the API documents', () => {
  beforeAll(() => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
  });

  it('are served exactly as committed under docs/api (npm run api-docs refreshes them)', async () => {
    const openApi = committed('openapi.json');
    const servedText = await (await fetch(`${baseUrl()}/openapi.json`)).text();
    const servedUrl = JSON.parse(servedText).servers[0].url as string;
    expect(JSON.parse(servedText.split(servedUrl).join(openApi.servers[0].url))).toEqual(openApi);
    expect(await (await fetch(`${baseUrl()}/asyncapi.json`)).json()).toEqual(committed('asyncapi.json'));
  });

  it('is OpenAPI 3.1 with a summary and a unique id per operation, the OAuth2 flow and the callback', () => {
    const doc = committed('openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) => METHODS.flatMap((m) => (item[m] ? [item[m]] : [])));
    expect(operations.length).toBeGreaterThanOrEqual(35);
    for (const op of operations) {
      expect(op.summary).toEqual(expect.any(String));
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    }
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
    expect(doc.components.securitySchemes.oauth2).toEqual(expect.objectContaining({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${doc.servers[0].url}/oauth/token`, scopes: {} } } }));
    expect(doc.paths['/Tails'].put.security).toEqual([{ oauth2: [] }]);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    const callback = doc.webhooks['Product.RiskAssessmentExecuted'].post;
    expect(callback.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      ['Authorization', 'User-Agent', 'Webhook-Id', 'Webhook-Attempt', 'Webhook-Timestamp', 'Webhook-Signature'].map((h) => `header:${h}`),
    );
    expect(callback.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RiskAssessmentExecutedCallback' });
  });

  it('has an example, valid for its schema, of every request body and every success response body', () => {
    const doc = committed('openapi.json');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const bodies: [string, any][] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) bodies.push([`${method} ${path} ${type}`, (media as any).schema]);
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (!status.startsWith('2')) continue;
          for (const [type, media] of Object.entries(response.content ?? {})) if (type.includes('json')) bodies.push([`${status} ${method} ${path}`, (media as any).schema]);
        }
      }
    }
    bodies.push(['callback', doc.webhooks['Product.RiskAssessmentExecuted'].post.requestBody.content['application/json'].schema]);
    const target = (schema: any): any => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema.type === 'array' ? target(schema.items) : schema);
    const missing = bodies.filter(([, schema]) => {
      const t = target(schema);
      // terminus's health bodies carry their examples on their properties
      return !t.examples && !Object.values(t.properties ?? {}).some((p: any) => p.example !== undefined);
    });
    expect(missing.map(([where]) => where)).toEqual([]);
    expect(bodies.length).toBeGreaterThanOrEqual(45);
    const invalid = Object.entries(doc.components.schemas as Record<string, any>).flatMap(([name, schema]) =>
      (schema.examples ?? []).flatMap((example: unknown) => {
        const validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
        return validate(example) ? [] : [`${name}: ${ajv.errorsText(validate.errors)}`];
      }),
    );
    expect(invalid).toEqual([]);
  });

  it('generates a TypeScript client that type-checks and makes one call of each kind', async () => {
    const dir = join(work, 'ts');
    mkdirSync(dir, { recursive: true });
    run(process.execPath, [join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js'), join(REPO, 'docs', 'api', 'openapi.json'), '--output', join(dir, 'schema.d.ts')]);
    cpSync(join(REPO, 'e2e', 'api-clients', 'calls.mts'), join(dir, 'calls.mts'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], outDir: 'out' },
      files: ['calls.mts'],
    }));
    run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir]); // the calls fit the generated types
    const account = await newServiceAccount();
    const r = await receiver();
    const got = JSON.parse(await runClient(process.execPath, [join(dir, 'out', 'calls.mjs'), baseUrl(), account.clientId, account.clientSecret, r.url]));
    expect(got).toEqual({ ...EXPECTED('ts'), created: [201, true, 201], renumbered: 'N703TS', read: 'N703TS' });
  });

  it('generates a Python client (openapi-python-client) that makes one call of each kind', async () => {
    const python = process.env.TAILSYNC_API_CLIENTS_PYTHON;
    if (!python) throw new Error('TAILSYNC_API_CLIENTS_PYTHON is not set: run the suite with `npm test`, which installs openapi-python-client');
    const dir = join(work, 'py');
    mkdirSync(dir, { recursive: true });
    const bin = join(python, '..');
    run(join(bin, 'openapi-python-client'), ['generate', '--path', join(REPO, 'docs', 'api', 'openapi.json'), '--meta', 'none', '--output-path', join(dir, 'tailsync_client')], {
      env: { PATH: `${bin}:${process.env.PATH}` }, // its ruff formats the generated code
    });
    const account = await newServiceAccount();
    const r = await receiver();
    const got = JSON.parse(await runClient(python, [join(REPO, 'e2e', 'api-clients', 'client_calls.py'), baseUrl(), account.clientId, account.clientSecret, r.url], {
      PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1',
    }));
    expect(got).toEqual({ ...EXPECTED('py'), created: [201, true], renumbered: 'N803PY', read: 'N803PY' });
  });
});
