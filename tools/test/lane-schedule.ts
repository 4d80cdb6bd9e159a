import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWaits } from './test-waits';

interface TimedReport {
  startTime: number;
  testResults?: { startTime: number; endTime: number }[];
}

/** One project's Jest run in a lane: its start, its first file's start and its last file's end (ms). */
interface ProjectRun {
  project: string;
  start: number;
  firstFile: number;
  end: number;
}

/** A lane as it ran: where its reports and waits are, and when it started (ms). */
export interface LaneRan {
  name: string;
  dataDir: string;
  startedAt: number;
}

/**
 * How the suites were scheduled: per lane, each project's Jest run from its start to its last
 * file's end, in seconds after the suites started, read from the reports the lane left in
 * `<reports>/<lane>/` (tools/test/jest.js names each after its project's folder).
 */
export function laneSchedule(reports: string, lanes: string[], suitesStartedAt: number): string[] {
  const at = (ms: number) => ((ms - suitesStartedAt) / 1000).toFixed(1);
  return lanes.map((lane) => {
    const runs = projectRuns(reports, lane);
    return `lane ${lane}: ${runs.map((r) => `${r.project} ${at(r.start)}–${at(r.end)} s`).join(', ') || 'no report'}`;
  });
}

/**
 * Per lane, how long after its start its first test file began, and what it waited for before
 * then (the venvs, a tool): the part of a first run that a new wait would lengthen first.
 */
export function firstTestWaits(reports: string, lanes: LaneRan[]): string[] {
  return lanes.map((lane) => {
    const first = Math.min(...projectRuns(reports, lane.name).map((run) => run.firstFile));
    if (!Number.isFinite(first)) return `lane ${lane.name}: no test file ran`;
    const before = readWaits(lane.dataDir).filter((wait) => wait.startedAt < first);
    const waited = before.map((wait) => `${wait.seconds.toFixed(1)} s for ${wait.what} (${wait.who})`).join(', ') || 'for nothing';
    return `lane ${lane.name}: its first test file began ${((first - lane.startedAt) / 1000).toFixed(1)} s after the lane started; before it, it waited ${waited}`;
  });
}

/** Every wait of the lanes' tests and runs, one line each. */
export function waitLines(lanes: LaneRan[]): string[] {
  return lanes.flatMap((lane) => readWaits(lane.dataDir).map((wait) => `${wait.who} waited ${wait.seconds.toFixed(1)} s for ${wait.what} (lane ${lane.name})`));
}

function projectRuns(reports: string, lane: string): ProjectRun[] {
  const dir = join(reports, lane);
  return (existsSync(dir) ? readdirSync(dir) : [])
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as TimedReport;
      const files = report.testResults ?? [];
      const end = Math.max(report.startTime, ...files.map((t) => t.endTime));
      const firstFile = files.length > 0 ? Math.min(...files.map((t) => t.startTime)) : Infinity;
      return { project: file.slice(0, -'.json'.length).replace(/__/g, '/'), start: report.startTime, firstFile, end };
    })
    .sort((a, b) => a.start - b.start);
}
