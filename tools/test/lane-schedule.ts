import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface TimedReport {
  startTime: number;
  testResults?: { endTime: number }[];
}

/**
 * How the suites were scheduled: per lane, each project's Jest run from its start to its last
 * file's end, in seconds after the suites started, read from the reports the lane left in
 * `<reports>/<lane>/` (tools/test/jest.js names each after its project's folder).
 */
export function laneSchedule(reports: string, lanes: string[], suitesStartedAt: number): string[] {
  const at = (ms: number) => ((ms - suitesStartedAt) / 1000).toFixed(1);
  return lanes.map((lane) => {
    const dir = join(reports, lane);
    const runs = (existsSync(dir) ? readdirSync(dir) : [])
      .filter((file) => file.endsWith('.json'))
      .map((file) => {
        const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as TimedReport;
        const end = Math.max(report.startTime, ...(report.testResults ?? []).map((t) => t.endTime));
        return { project: file.slice(0, -'.json'.length).replace(/__/g, '/'), start: report.startTime, end };
      })
      .sort((a, b) => a.start - b.start);
    return `lane ${lane}: ${runs.map((r) => `${r.project} ${at(r.start)}–${at(r.end)} s`).join(', ') || 'no report'}`;
  });
}
