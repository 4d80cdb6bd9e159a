/**
 * Cuts one process off the network of this machine, as a partition would, and heals it. Every
 * process here talks over loopback, so the cut is made with iptables. The connections it has
 * (and its listening sockets) are cut by their local ports, in both directions; the ones it opens
 * later are caught by its cgroup: the process is moved into a cgroup (v2) of its own, and every
 * packet of a connection it opens from there is dropped (a connection mark). A socket keeps the
 * cgroup it was made in, hence both. `ports` narrows the cut to the connections with those ports
 * at the far end (an app cut off from Kafka only). Needs root. Nothing leaves the machine.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The worktree this file is in: its cuts are tagged with it. */
const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/** The cgroup v2 hierarchy: beside v1's controllers on a hybrid host (as here), or the only one. */
const CGROUP_ROOT = existsSync('/sys/fs/cgroup/unified/cgroup.procs') ? '/sys/fs/cgroup/unified' : '/sys/fs/cgroup';
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
  // First into the cgroup, then its sockets listed: none made in between escapes both.
  writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  // The process's pid in the mark too: the suite's two Jest processes cut at the same time.
  const mark = `0x45${(process.pid & 0xfff).toString(16).padStart(3, '0')}${(++marks & 0xfff).toString(16).padStart(3, '0')}`;
  const comment = ['-m', 'comment', '--comment', TAG];
  const farEnd = ports.length > 0 ? ['-p', 'tcp', '-m', 'multiport', '--dports', ports.join(',')] : [];
  const byLocalPort = chunks(localPorts(pid, ports), 15).map((chunk): [string, string[]] => ['OUTPUT', ['-p', 'tcp', '-m', 'multiport', '--ports', chunk.join(','), ...comment, '-j', 'DROP']]);
  const rules: [string, string[]][] = [
    ...byLocalPort,
    ['OUTPUT', [...farEnd, '-m', 'cgroup', '--path', cgroup, ...comment, '-j', 'CONNMARK', '--set-mark', mark]],
    ['OUTPUT', ['-m', 'connmark', '--mark', mark, ...comment, '-j', 'DROP']],
  ];
  // Inserted in reverse at the top, so they run in the order above (the mark before the drop).
  for (const [chain, rule] of [...rules].reverse()) iptables('-I', chain, '1', ...rule);
  return {
    heal: async () => {
      for (const [chain, rule] of rules) iptables('-D', chain, ...rule);
      leaveCgroup(pid, dir);
    },
  };
}

/**
 * The local ports of the process's TCP sockets (`ss`): every one, or with `peers`, those of its
 * connections to one of these ports.
 */
function localPorts(pid: number, peers: number[]): number[] {
  const lines = execFileSync('ss', ['-tanpH'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(`pid=${pid},`));
  const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));
  const found = lines
    .map((line) => line.trim().split(/\s+/))
    .filter(([state, , , , peer]) => (peers.length === 0 ? true : state !== 'LISTEN' && peers.includes(portOf(peer))))
    .map(([, , , local]) => portOf(local));
  return [...new Set(found)];
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

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
