/**
 * What an operator reads in the apps' logs during a fault: every WARN and ERROR line an app wrote
 * between two moments, counted by app and message (the apps' own lines and kafkajs's, which come
 * as JSON lines of two shapes: `"level":40` with `"time"`, `"level":"ERROR"` with `"timestamp"`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LEVELS: Record<string, string> = { '40': 'WARN', '50': 'ERROR', '60': 'FATAL', WARN: 'WARN', ERROR: 'ERROR' };

interface LogLine {
  level?: number | string;
  time?: number;
  timestamp?: string;
  msg?: string;
  message?: string;
  logger?: string;
  context?: string;
}

/** "<count> × <app> <LEVEL> [<logger>] <message>" lines, the most frequent first. */
export function warningsBetween(logDir: string, instances: { app: string; instance: string }[], from: number, to: number): string[] {
  const counts = new Map<string, number>();
  for (const { app, instance } of instances) {
    const file = join(logDir, `${instance}.log`);
    if (!existsSync(file)) continue;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text.startsWith('{')) continue;
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        continue;
      }
      const level = LEVELS[String(line.level)];
      const at = line.time ?? (line.timestamp ? Date.parse(line.timestamp) : NaN);
      if (!level || !(at >= from && at <= to)) continue;
      // Addresses and numbers vary from line to line; the message's shape is what repeats.
      const message = String(line.msg ?? line.message ?? '').replace(/\d+/g, 'N').slice(0, 160);
      const key = `${app} ${level} [${line.logger ?? line.context ?? '-'}] ${message}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${n} × ${key}`);
}
