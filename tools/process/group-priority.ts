import { getPriority, setPriority } from 'node:os';
import { groupMembers } from './process-table';

/**
 * Raises every process of a process group to at least the given priority (lowers its niceness to
 * `niceness`; never the other way). A process that exits meanwhile, or one this process may not
 * renice (lowering niceness needs root), is left as it is. How many it raised.
 */
export function raiseGroupPriority(pgid: number, niceness: number): number {
  let raised = 0;
  for (const pid of groupMembers(pgid)) {
    try {
      if (getPriority(pid) <= niceness) continue;
      setPriority(pid, niceness);
      raised++;
    } catch {
      // Gone, or not ours to renice.
    }
  }
  return raised;
}
