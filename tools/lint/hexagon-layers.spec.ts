/**
 * The layer rule of eslint.config.mjs, run with the configuration `npm run lint` uses: on sources
 * placed in each layer of an app, what they may import and what fails the lint.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

const importing = (from: string) => `import { thing } from '${from}';\nexport const used = thing;\n`;

/** Each probe: a source importing `from`, linted as if it were the file at `path`. */
const PROBES = {
  applicationAdapter: ['apps/tail-sync/src/tails/application/commands/probe.ts', '../../infrastructure/read-model/tails.read-model'],
  applicationEntryPoint: ['apps/tail-sync/src/tails/application/probe.ts', '../interface/tails.messages'],
  applicationPorts: ['apps/tail-sync/src/tails/application/probe.ts', './tail-ports'],
  applicationDomain: ['apps/tail-sync/src/tails/application/probe.ts', '../domain/tail.decider'],
  applicationLibrary: ['apps/tail-sync/src/tails/application/probe.ts', '@tailsync/event-store'],
  domainApplication: ['apps/tail-sync/src/tails/domain/probe.ts', '../application/tail-ports'],
  dispatcherDomainInfrastructure: ['apps/webhook-dispatcher/src/attempts/domain/probe.ts', '../../infrastructure/store'],
  concernEntryPoint: ['apps/webhook-dispatcher/src/scheduling/probe.ts', '../interface/subscription-requests'],
  concernWiring: ['apps/webhook-dispatcher/src/delivery-log/probe.ts', '../dispatcher.module'],
  concernLifecycle: ['apps/webhook-dispatcher/src/scheduling/probe.ts', '../dispatcher-lifecycle'],
  dispatcherDomainWiring: ['apps/webhook-dispatcher/src/attempts/domain/probe.ts', '../../dispatcher.module'],
  concernModuleBelow: ['apps/webhook-dispatcher/src/intake/intake.module.ts', '../attempts/attempts.module'],
  concernBelow: ['apps/webhook-dispatcher/src/scheduling/probe.ts', '../attempts/attempt.runner'],
  specAdapter: ['apps/tail-sync/src/tails/application/probe.spec.ts', '../infrastructure/reservations/postgres-reservations'],
  useCaseAdapter: ['apps/tail-sync/src/tails/commands/create-or-map/create-or-map.use-case.ts', '../../infrastructure/ids/postgres-tail-id-allocator'],
  commandEntryPoint: ['apps/tail-sync/src/tails/commands/create-or-map/create-or-map.command.ts', './create-or-map.grpc'],
  commandPorts: ['apps/tail-sync/src/tails/commands/create-or-map/create-or-map.command.ts', '../../application/tail-ports'],
  grpcMethodCalls: ['apps/tail-sync/src/tails/commands/create-or-map/create-or-map.grpc.ts', '../../interface/tail-calls'],
  infrastructureGrpcMethod: ['apps/tail-sync/src/tails/infrastructure/probe.ts', '../commands/create-or-map/create-or-map.grpc'],
  domainUseCase: ['apps/tail-sync/src/tails/domain/probe.ts', '../commands/create-or-map/create-or-map.use-case'],
} as const satisfies Record<string, readonly [string, string]>;

type Probe = keyof typeof PROBES;

// One ESLint for every probe: each `eslint --stdin` process would load the configuration and the
// TypeScript parser again (about 2.5 CPU-seconds each).
const LINT_ALL = `
const { ESLint } = require('eslint');
const probes = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
(async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const { path, source } of probes) out.push((await eslint.lintText(source, { filePath: path }))[0].messages);
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** The messages of the layer rule for each probe. */
function layerErrors(): Record<Probe, string[]> {
  const names = Object.keys(PROBES) as Probe[];
  const input = JSON.stringify(names.map((name) => ({ path: join(ROOT, PROBES[name][0]), source: importing(PROBES[name][1]) })));
  const run = spawnSync(process.execPath, ['-e', LINT_ALL], { cwd: ROOT, input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  const messages = JSON.parse(run.stdout) as { ruleId: string | null; message: string }[][];
  return Object.fromEntries(names.map((name, i) => [name, messages[i].filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)])) as Record<Probe, string[]>;
}

describe('the hexagon lint rule', () => {
  let errors: Record<Probe, string[]>;
  beforeAll(() => {
    errors = layerErrors();
  });

  it('fails an application source that imports an adapter or an entry point', () => {
    expect(errors.applicationAdapter).toEqual([expect.stringContaining('through its ports')]);
    expect(errors.applicationEntryPoint).toHaveLength(1);
  });

  it('lets an application source import its ports, the domain and libraries', () => {
    expect(errors.applicationPorts).toEqual([]);
    expect(errors.applicationDomain).toEqual([]);
    expect(errors.applicationLibrary).toEqual([]);
  });

  it("keeps a use-case folder's layers apart: its command and use case are the application, its gRPC method an entry point", () => {
    expect(errors.useCaseAdapter).toEqual([expect.stringContaining('through its ports')]);
    expect(errors.commandEntryPoint).toEqual([expect.stringContaining('through its ports')]);
    expect(errors.commandPorts).toEqual([]);
    expect(errors.grpcMethodCalls).toEqual([]);
    expect(errors.infrastructureGrpcMethod).toEqual([expect.stringContaining('entry points')]);
    expect(errors.domainUseCase).toEqual([expect.stringContaining('nothing outside it')]);
  });

  it('fails a domain source that imports any outer layer, in every app', () => {
    expect(errors.domainApplication).toEqual([expect.stringContaining('nothing outside it')]);
    expect(errors.dispatcherDomainInfrastructure).toHaveLength(1);
  });

  it("fails a dispatcher concern that imports the dispatcher's entry points or wiring, not one that imports a concern below it", () => {
    expect(errors.concernEntryPoint).toEqual([expect.stringContaining('entry points')]);
    expect(errors.concernWiring).toEqual([expect.stringContaining("copy's wiring")]);
    expect(errors.concernLifecycle).toEqual([expect.stringContaining("copy's wiring")]);
    expect(errors.dispatcherDomainWiring).toEqual([expect.stringContaining('nothing outside it')]);
    expect(errors.concernBelow).toEqual([]);
    expect(errors.concernModuleBelow).toEqual([]);
  });

  it('lets specs wire real adapters', () => {
    expect(errors.specAdapter).toEqual([]);
  });
});
