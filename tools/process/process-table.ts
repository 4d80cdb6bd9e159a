/**
 * What Linux's /proc says about a process: whether it still runs, its command line, its parent.
 * The supervisor uses these to tell a server left behind by a killed run from an unrelated
 * process that reused its pid, and from a server another live run owns.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** True while `pid` runs; a zombie (dead, not yet reaped by its new parent) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** The pids of the processes of a process group (none without /proc). */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries.map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command's name (in parentheses): state, ppid, pgrp.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Its arguments joined by spaces; undefined when it does not run (or there is no /proc). */
export function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/** Its parent's pid and command name ('' when the parent is gone); undefined without /proc. */
export function parentOf(pid: number): { pid: number; comm: string } | undefined {
  let ppid: number;
  try {
    ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return undefined;
  }
  try {
    return { pid: ppid, comm: readFileSync(`/proc/${ppid}/comm`, 'utf8').trim() };
  } catch {
    return { pid: ppid, comm: '' };
  }
}

/** Resolves once `pid` is gone, or after `timeoutMs` (check isAlive to tell which). */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
