/**
 * The layer rule of eslint.config.mjs, run as `npm run lint` runs it: on sources placed in each
 * layer of an app, what they may import and what fails the lint.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const ESLINT = join(ROOT, 'node_modules/.bin/eslint');

/** The messages of the layer rule for `source` linted as if it were the file `path`. */
function layerErrors(path: string, source: string): string[] {
  const run = spawnSync(ESLINT, ['--format', 'json', '--stdin', '--stdin-filename', path], { cwd: ROOT, input: source, encoding: 'utf8' });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const importing = (from: string) => `import { thing } from '${from}';\nexport const used = thing;\n`;

describe('the hexagon lint rule', () => {
  it('fails an application source that imports an adapter or an entry point', () => {
    expect(layerErrors('apps/tail-sync/src/tails/application/commands/probe.ts', importing('../../infrastructure/read-model/tails.read-model'))).toEqual([
      expect.stringContaining('through its ports'),
    ]);
    expect(layerErrors('apps/tail-sync/src/tails/application/probe.ts', importing('../interface/tails.messages'))).toHaveLength(1);
  });

  it('lets an application source import its ports, the domain and libraries', () => {
    expect(layerErrors('apps/tail-sync/src/tails/application/probe.ts', importing('./tail-ports'))).toEqual([]);
    expect(layerErrors('apps/tail-sync/src/tails/application/probe.ts', importing('../domain/tail.decider'))).toEqual([]);
    expect(layerErrors('apps/tail-sync/src/tails/application/probe.ts', importing('@tailsync/event-store'))).toEqual([]);
  });

  it("keeps a use-case folder's layers apart: its command and use case are the application, its gRPC method an entry point", () => {
    const folder = 'apps/tail-sync/src/tails/commands/create-or-map';
    expect(layerErrors(`${folder}/create-or-map.use-case.ts`, importing('../../infrastructure/ids/postgres-tail-id-allocator'))).toEqual([
      expect.stringContaining('through its ports'),
    ]);
    expect(layerErrors(`${folder}/create-or-map.command.ts`, importing('./create-or-map.grpc'))).toEqual([expect.stringContaining('through its ports')]);
    expect(layerErrors(`${folder}/create-or-map.command.ts`, importing('../../application/tail-ports'))).toEqual([]);
    expect(layerErrors(`${folder}/create-or-map.grpc.ts`, importing('../../interface/tail-calls'))).toEqual([]);
    expect(layerErrors('apps/tail-sync/src/tails/infrastructure/probe.ts', importing('../commands/create-or-map/create-or-map.grpc'))).toEqual([
      expect.stringContaining('entry points'),
    ]);
    expect(layerErrors('apps/tail-sync/src/tails/domain/probe.ts', importing('../commands/create-or-map/create-or-map.use-case'))).toEqual([
      expect.stringContaining('nothing outside it'),
    ]);
  });

  it('fails a domain source that imports any outer layer, in every app', () => {
    expect(layerErrors('apps/tail-sync/src/tails/domain/probe.ts', importing('../application/tail-ports'))).toEqual([expect.stringContaining('nothing outside it')]);
    expect(layerErrors('apps/webhook-dispatcher/src/attempts/domain/probe.ts', importing('../../infrastructure/store'))).toHaveLength(1);
  });

  it("fails a dispatcher concern that imports the dispatcher's entry points or wiring, not one that imports a concern below it", () => {
    expect(layerErrors('apps/webhook-dispatcher/src/scheduling/probe.ts', importing('../interface/subscription-requests'))).toEqual([expect.stringContaining('entry points')]);
    expect(layerErrors('apps/webhook-dispatcher/src/delivery-log/probe.ts', importing('../wiring/dispatcher-settings'))).toHaveLength(1);
    expect(layerErrors('apps/webhook-dispatcher/src/attempts/domain/probe.ts', importing('../../wiring/dispatcher-settings'))).toEqual([expect.stringContaining('nothing outside it')]);
    expect(layerErrors('apps/webhook-dispatcher/src/scheduling/probe.ts', importing('../attempts/attempt.runner'))).toEqual([]);
  });

  it('lets specs wire real adapters', () => {
    expect(layerErrors('apps/tail-sync/src/tails/application/probe.spec.ts', importing('../infrastructure/reservations/postgres-reservations'))).toEqual([]);
  });
});
