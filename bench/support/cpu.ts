/**
 * CPU use per process during a workload, measured from /proc (Linux): the utime + stime ticks each
 * process spent between two samples, so the figure is the average over the window (`ps -o %cpu`
 * shows the average over the process's whole life instead). 100 % = one core busy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface ProcessGroup {
  name: string;
  /** The pids that make up the group right now (e.g. PostgreSQL's postmaster and its backends). */
  pids: () => number[];
}

export interface CpuFigures {
  windowS: number;
  /** Average CPU % per group over the window (100 = one core). */
  avg: Record<string, number>;
  /** Highest 1-second CPU % per group. */
  peak: Record<string, number>;
  /** The whole machine (every process, ours and others'), out of cores × 100. */
  machine: { avg: number; peak: number; capacity: number };
  /** Machine CPU not accounted for by the groups (other processes on the machine). */
  other: number;
}

function ticksOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  } catch {
    return null;
  }
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((s, n) => s + n, 0);
  const idle = v[3] + (v[4] ?? 0);
  return { busy: total - idle, total };
}

/** Children of `ppid` (one level), read from /proc. */
export function childPids(ppid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === ppid) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}

type Snapshot = { at: number; groups: Map<string, Map<number, number>>; machine: { busy: number; total: number } };

function snapshot(groups: ProcessGroup[]): Snapshot {
  const map = new Map<string, Map<number, number>>();
  for (const g of groups) {
    const ticks = new Map<number, number>();
    for (const pid of g.pids()) {
      const t = ticksOf(pid);
      if (t !== null) ticks.set(pid, t);
    }
    map.set(g.name, ticks);
  }
  return { at: Date.now(), groups: map, machine: machineTicks() };
}

function delta(a: Snapshot, b: Snapshot, name: string): number {
  const before = a.groups.get(name) ?? new Map<number, number>();
  const after = b.groups.get(name) ?? new Map<number, number>();
  let ticks = 0;
  // A pid first seen in this interval (a new PostgreSQL backend) was born in it: all its ticks count.
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks;
}

/** Samples every second until `stop()`; returns averages and peaks per group. */
export function startCpuSampler(groups: ProcessGroup[], intervalMs = 1000): { stop(): CpuFigures } {
  const first = snapshot(groups);
  const peaks = new Map<string, number>();
  const totals = new Map<string, number>();
  let machinePeak = 0;
  let prev = first;
  const ncpu = cpus().length;
  const tick = () => {
    const cur = snapshot(groups);
    const secs = (cur.at - prev.at) / 1000;
    for (const g of groups) totals.set(g.name, (totals.get(g.name) ?? 0) + delta(prev, cur, g.name));
    if (secs > 0.2) {
      for (const g of groups) peaks.set(g.name, Math.max(peaks.get(g.name) ?? 0, (100 * delta(prev, cur, g.name)) / TICKS_PER_SECOND / secs));
      const dm = cur.machine.total - prev.machine.total;
      if (dm > 0) machinePeak = Math.max(machinePeak, (100 * ncpu * (cur.machine.busy - prev.machine.busy)) / dm);
    }
    // Children (PostgreSQL backends) are carried over so the next delta sees them.
    prev = cur;
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    stop(): CpuFigures {
      clearInterval(timer);
      tick();
      const last = prev;
      const secs = (last.at - first.at) / 1000 || 1;
      const avg: Record<string, number> = {};
      const peak: Record<string, number> = {};
      let known = 0;
      for (const g of groups) {
        avg[g.name] = Math.round((100 * (totals.get(g.name) ?? 0)) / TICKS_PER_SECOND / secs);
        peak[g.name] = Math.round(peaks.get(g.name) ?? avg[g.name]);
        known += avg[g.name];
      }
      const dm = last.machine.total - first.machine.total;
      const machineAvg = dm > 0 ? Math.round((100 * ncpu * (last.machine.busy - first.machine.busy)) / dm) : 0;
      return {
        windowS: Math.round(secs * 10) / 10,
        avg,
        peak,
        machine: { avg: machineAvg, peak: Math.round(machinePeak), capacity: 100 * ncpu },
        other: Math.max(0, machineAvg - known),
      };
    },
  };
}
