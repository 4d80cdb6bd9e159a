/**
 * What one access-log line costs, written by the service's logger (with its redaction) and by the
 * access logger (the same, less redaction), interleaved rounds in one process:
 *
 *   node tools/run.js bench/standalone/access-line-bench.ts [--lines 100000] [--rounds 5]
 *
 * The line is the one `addAccessLog` writes, its `res` a real `ServerResponse`; the lines go to
 * /dev/null through pino's own asynchronous destination, as the apps' do to their files.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { parseArgs } from 'node:util';
import pino, { type Logger } from 'pino';
import { accessLogger, serviceLoggerOptions } from '@tailsync/service-kit';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '5' } } });
const lines = Number(values.lines);
const rounds = Number(values.rounds);

const service = pino(serviceLoggerOptions('gateway', 'info'), pino.destination({ dest: '/dev/null', sync: false }));
const access = accessLogger(service);
const res = new ServerResponse(new IncomingMessage(new Socket()));
res.statusCode = 200;

/** µs per line, over `lines` lines. */
function perLine(logger: Logger): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < lines; i++) {
    const id = `r-${i}`;
    logger.info({ requestId: id, req: { id, method: 'GET', url: '/Version', remoteAddress: '127.0.0.1' }, res, responseTime: 3 }, 'request completed');
  }
  return Number(process.hrtime.bigint() - started) / lines / 1_000;
}

perLine(service);
perLine(access);
const figures = { service: [] as number[], access: [] as number[] };
for (let round = 0; round < rounds; round++) {
  figures.service.push(perLine(service));
  figures.access.push(perLine(access));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`| logger | µs per access line (median of ${rounds} × ${lines.toLocaleString('en')}) | rounds |`);
console.log('|---|---:|---|');
for (const [name, xs] of Object.entries(figures)) console.log(`| ${name} | ${median(xs).toFixed(2)} | ${xs.map((x) => x.toFixed(2)).join(', ')} |`);
console.log(`access line without redaction: ${((median(figures.access) / median(figures.service)) * 100).toFixed(0)} % of its cost with it`);
