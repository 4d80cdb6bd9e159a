/**
 * What the apps of the test stack logged: each app instance appends its lines (JSON, one record
 * per line) to `<logDir>/<instance>.log`. The apps write their logs asynchronously (pino), so a
 * line logged while a request ran may reach the file after the response: a test waits for the
 * line it needs before it reads. Lines are written in order, so once a line is in the file, every
 * line logged before it is too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './eventually';
import { logDir } from './test-stack';

export type LogRecord = Record<string, unknown>;

/** The instances whose logs start with `prefix` (every one by default; a service's replacement copies share its name's start). */
export function loggedInstances(prefix = ''): string[] {
  return readdirSync(logDir())
    .filter((file) => file.startsWith(prefix) && file.endsWith('.log'))
    .map((file) => file.slice(0, -'.log'.length));
}

/** The whole lines of an instance's log (none while it has no file); a line still being written is left for the next read. */
export function logLines(instance: string): string[] {
  const file = join(logDir(), `${instance}.log`);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line.length > 0);
}

/** The JSON records of an instance's log (a line that is not one, such as a crash's stack, is left out). */
export function logRecords(instance: string): LogRecord[] {
  return logLines(instance).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogRecord);
}

/** How long to wait for a line, and what it is (for the failure's message). */
export interface LogWait {
  timeoutMs?: number;
  what?: string;
}

/** The lines of an instance's log that `match` accepts, once there is one; fails, naming the instance, after `timeoutMs`. */
export function untilLogged(instance: string, match: (line: string) => boolean, { timeoutMs = 10_000, what = 'the line the test waits for' }: LogWait = {}): Promise<string[]> {
  return eventually(
    async () => {
      const lines = logLines(instance).filter(match);
      return lines.length > 0 && lines;
    },
    timeoutMs,
    200,
    `${instance}.log: a line with ${what}`,
  );
}

/** The records of an instance's log that `match` accepts, once there is one (as untilLogged). */
export async function untilRecords(instance: string, match: (record: LogRecord) => boolean, wait: LogWait = {}): Promise<LogRecord[]> {
  const lines = await untilLogged(instance, (line) => line.startsWith('{') && match(JSON.parse(line) as LogRecord), wait);
  return lines.map((line) => JSON.parse(line) as LogRecord);
}

/** Waits for the access-log line of request `requestId`: every line logged before it is in the file then. */
export async function untilRequestLogged(instance: string, requestId: string): Promise<void> {
  await untilRecords(instance, (record) => record.requestId === requestId && record.msg === 'request completed', { what: `request ${requestId}'s access line` });
}
