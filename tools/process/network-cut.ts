/**
 * Cuts one process off the network of this machine, as a partition would, and heals it. Every
 * process here talks over loopback, so the cut is made with iptables: the process is moved into a
 * cgroup (v2) of its own, every packet it sends is dropped, and so is every later packet of any
 * connection it sent on (a connection mark), in both directions. `ports` narrows the cut to the
 * connections with those ports at the far end (an app cut off from Kafka only). Needs root.
 * Nothing leaves the machine: the rules match loopback traffic of one process.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

const CGROUP_ROOT = '/sys/fs/cgroup/unified';
/** Tags this worktree's rules and cgroups, so a clean-up never touches another run's. */
const TAG = `tailsync-faults-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 8)}`;

export interface NetworkCut {
  /** Removes the rules and puts the process back where it was. */
  heal(): Promise<void>;
}

const iptables = (...args: string[]) => execFileSync('iptables', ['-w', '5', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });

let marks = 0;

export function cutOff(pid: number, label: string, ports: number[] = []): NetworkCut {
  const cgroup = `${TAG}-${label}`;
  const dir = join(CGROUP_ROOT, cgroup);
  mkdirSync(dir, { recursive: true });
  const mark = `0x45${(++marks).toString(16).padStart(4, '0')}`;
  const comment = ['-m', 'comment', '--comment', TAG];
  const farEnd = ports.length > 0 ? ['-p', 'tcp', '-m', 'multiport', '--dports', ports.join(',')] : [];
  const farEndBack = ports.length > 0 ? ['-p', 'tcp', '-m', 'multiport', '--sports', ports.join(',')] : [];
  const rules: [string, string[]][] = [
    ['OUTPUT', [...farEnd, '-m', 'cgroup', '--path', cgroup, ...comment, '-j', 'CONNMARK', '--set-mark', mark]],
    ['OUTPUT', ['-m', 'connmark', '--mark', mark, ...comment, '-j', 'DROP']],
    ['INPUT', [...farEndBack, '-m', 'connmark', '--mark', mark, ...comment, '-j', 'DROP']],
  ];
  // Inserted in reverse at the top, so they run in the order above (the mark before the drop).
  for (const [chain, rule] of [...rules].reverse()) iptables('-I', chain, '1', ...rule);
  writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  return {
    heal: async () => {
      for (const [chain, rule] of rules) iptables('-D', chain, ...rule);
      leaveCgroup(pid, dir);
    },
  };
}

function leaveCgroup(pid: number, dir: string): void {
  try {
    writeFileSync(join(CGROUP_ROOT, 'cgroup.procs'), String(pid));
  } catch {
    /* the process is gone */
  }
  rmdirSync(dir);
}

/** Removes every rule and cgroup of this worktree's cuts (what a killed run left behind). */
export function healEveryCut(): void {
  for (const chain of ['OUTPUT', 'INPUT']) {
    const lines = execFileSync('iptables', ['-w', '5', '-S', chain], { encoding: 'utf8' }).split('\n');
    for (const line of lines.filter((l) => l.includes(TAG))) iptables(...line.replace(/^-A /, '-D ').split(' ').map((w) => w.replace(/^"|"$/g, '')));
  }
  if (!existsSync(CGROUP_ROOT)) return;
  for (const name of readdirSync(CGROUP_ROOT).filter((n) => n.startsWith(TAG))) {
    const dir = join(CGROUP_ROOT, name);
    const procs = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    for (const pid of procs) writeFileSync(join(CGROUP_ROOT, 'cgroup.procs'), pid);
    rmdirSync(dir);
  }
}
