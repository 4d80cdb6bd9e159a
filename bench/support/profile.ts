/**
 * Reads the `.cpuprofile` files V8 wrote (`--cpu-prof`) and sums the samples that fall inside the
 * measured windows (the profile also covers start-up, which is mostly SWC compiling TypeScript):
 * self time per function and per package, and inclusive time per function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Window } from './context';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  ms: number;
  pct: number;
}

export interface ProfileSummary {
  process: string;
  file: string;
  /** Sampled time inside the windows, and the part of it not idle. */
  windowMs: number;
  busyMs: number;
  selfByFunction: ProfileEntry[];
  selfByPackage: ProfileEntry[];
  inclusiveByFunction: ProfileEntry[];
  /** Time with at least one frame of the package on the stack (what the package and its callees cost). */
  inclusiveByPackage: ProfileEntry[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where(url: string): string {
  if (!url) return '';
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) return clean.slice(nm + '/node_modules/'.length);
  const repo = /\/(apps|libs|tools|bench)\/.*$/.exec(clean);
  return repo ? repo[0].slice(1) : clean;
}

function packageOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (SPECIAL.has(functionName)) return functionName;
  if (!url) return '(native: V8 builtins, JSON, crypto, …)';
  if (url.startsWith('node:')) return 'node core';
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = clean.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const repo = /\/(apps|libs)\/([^/]+)\//.exec(clean);
  return repo ? `${repo[1]}/${repo[2]}` : 'other';
}

const label = (n: ProfileNode) =>
  SPECIAL.has(n.callFrame.functionName)
    ? n.callFrame.functionName
    : `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

export function summarizeProfile(file: string, windows: Pick<Window, 'start' | 'end'>[], top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inWindow = (us: number) => windows.some((w) => us >= w.start * 1000 && us <= w.end * 1000);

  const self = new Map<string, number>();
  const pkg = new Map<string, number>();
  const incl = new Map<string, number>();
  const inclPkg = new Map<string, number>();
  let windowUs = 0;
  let idleUs = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (!inWindow(t)) continue;
    const weight = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i];
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    windowUs += weight;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += weight;
      continue;
    }
    const l = label(node);
    self.set(l, (self.get(l) ?? 0) + weight);
    const p = packageOf(node);
    pkg.set(p, (pkg.get(p) ?? 0) + weight);
    const seen = new Set<string>();
    const seenPkg = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id) as ProfileNode;
      const nl = label(n);
      if (n.callFrame.functionName === '(root)') continue;
      const np = packageOf(n);
      if (!seenPkg.has(np) && np !== 'node core' && !np.startsWith('(native')) {
        seenPkg.add(np);
        inclPkg.set(np, (inclPkg.get(np) ?? 0) + weight);
      }
      if (seen.has(nl)) continue;
      seen.add(nl);
      incl.set(nl, (incl.get(nl) ?? 0) + weight);
    }
  }
  const busyUs = windowUs - idleUs;
  const entries = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), pct: busyUs ? Math.round((1000 * us) / busyUs) / 10 : 0 }));
  return {
    process: basename(file).split('.')[0],
    file,
    windowMs: Math.round(windowUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    selfByFunction: entries(self),
    selfByPackage: entries(pkg),
    inclusiveByFunction: entries(incl),
    inclusiveByPackage: entries(inclPkg),
  };
}

/** The profiles written into `dir` since `sinceMs` (wall clock), one per app. */
export function profilesSince(dir: string, sinceMs: number): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && Number(f.split('.')[1]) >= sinceMs)
    .map((f) => join(dir, f));
}
