/**
 * Cuts one process off the network of this machine, as a partition would, and heals it. Every
 * process here talks over loopback, so the cut is made with iptables. The connections it has are
 * cut by both their ports (its listening sockets by their port), in both directions: a port alone
 * would also cut another process's connection that shares the ephemeral port with a different far
 * end, which Linux allows (suspected once, when a test beside a cut could not connect). The ones it
 * opens later are caught by its cgroup: the process is moved into a cgroup (v2) of its own, and
 * every packet of a connection it opens from there is dropped (a connection mark). A socket keeps
 * the cgroup it was made in, hence both. `ports` narrows the cut to the connections with those
 * ports at the far end (an app cut off from Kafka only). Needs root. Nothing leaves the machine.
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
  const { listening, connections } = socketsOf(pid, ports);
  const drop = (match: string[]): [string, string[]] => ['OUTPUT', ['-p', 'tcp', ...match, ...comment, '-j', 'DROP']];
  const byListeningPort = chunks(listening, 15).map((chunk) => drop(['-m', 'multiport', '--ports', chunk.join(',')]));
  const byBothPorts = [...groupBy(connections, (c) => c.peer)].flatMap(([peer, ofPeer]) =>
    chunks(ofPeer.map((c) => c.local), 15).flatMap((locals) => [
      drop(['--dport', String(peer), '-m', 'multiport', '--sports', locals.join(',')]),
      drop(['--sport', String(peer), '-m', 'multiport', '--dports', locals.join(',')]),
    ]),
  );
  const rules: [string, string[]][] = [
    ...byListeningPort,
    ...byBothPorts,
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
 * The process's TCP sockets (`ss`): its listening ports and its connections (local and far-end
 * port), those on a listening port left to that port's rule; with `peers`, only its connections
 * to one of these ports.
 */
function socketsOf(pid: number, peers: number[]): { listening: number[]; connections: { local: number; peer: number }[] } {
  const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));
  const sockets = execFileSync('ss', ['-tanpH'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`pid=${pid},`))
    .map((line) => line.trim().split(/\s+/))
    .map(([state, , , local, peer]) => ({ listens: state === 'LISTEN', local: portOf(local), peer: portOf(peer) }));
  const listening = peers.length > 0 ? [] : [...new Set(sockets.filter((s) => s.listens).map((s) => s.local))];
  const connections = sockets
    .filter((s) => !s.listens && !listening.includes(s.local) && (peers.length === 0 || peers.includes(s.peer)))
    .map(({ local, peer }) => ({ local, peer }));
  return { listening, connections };
}

const groupBy = <T, K>(items: T[], key: (item: T) => K): Map<K, T[]> =>
  items.reduce((groups, item) => groups.set(key(item), [...(groups.get(key(item)) ?? []), item]), new Map<K, T[]>());

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

function leaveCgroup(pid: number, dir: string): void {
  try {
    writeFileSync(join(CGROUP_ROOT, 'cgroup.procs'), String(pid));
  } catch {
    /* the process is gone */
  }
  rmdirSync(dir);
}

/** The rules of every cut of this worktree in place now (any test's), for a failure to show what was cutting. */
export function cutsInPlace(): string[] {
  return execFileSync('iptables', ['-w', '5', '-S', 'OUTPUT'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(TAG));
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
