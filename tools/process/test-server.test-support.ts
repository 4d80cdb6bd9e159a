/**
 * A real server process for the supervisor's spec: it listens on a TCP port, prints
 * `listening on <port>` and, on SIGTERM or SIGINT, `stopping on <signal>` before it exits.
 * `--ignore=<signal>` makes it ignore that signal; `--exit-with=<code>` makes it fail at start.
 */
import { join } from 'node:path';
import { SupervisedProcessSpec } from './supervised-process';

const SERVER = `
const args = Object.fromEntries(process.argv.slice(1).map((a) => a.replace(/^--/, '').split('=')));
if (args['exit-with']) {
  console.error('cannot start: the configuration is broken');
  process.exit(Number(args['exit-with']));
}
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (args.ignore === signal) return console.log('ignoring ' + signal);
    console.log('stopping on ' + signal);
    process.exit(0);
  });
}
const server = require('node:net').createServer((socket) => socket.end());
server.listen(Number(args.port ?? 0), '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** The test server run from `dir` (its pid file is there too), with `flags` after its marker. */
export function testServerSpec(dir: string, flags: string[] = [], overrides: Partial<SupervisedProcessSpec> = {}): SupervisedProcessSpec {
  const marker = `--test-server=${dir}`;
  return {
    name: 'the test server',
    pidFile: join(dir, 'server.pid'),
    identity: [marker],
    command: process.execPath,
    args: ['-e', SERVER, '--', marker, ...flags],
    cwd: dir,
    output: () => undefined,
    ready: { outputLine: 'listening on', timeoutMs: 10_000 },
    stop: { signal: 'SIGTERM', graceMs: 5_000 },
    signalOnParentExit: 'SIGTERM',
    ...overrides,
  };
}
