import { spawn } from 'node:child_process';
import { getPriority } from 'node:os';
import { raiseGroupPriority } from './group-priority';
import { groupMembers as members } from './process-table';

describe('raising a process group to a priority', () => {
  it('renices a niced group, its children included, to the priority asked, and never lowers one', async () => {
    // A niced build stand-in: a shell and the child it waits for, in a group of their own.
    const group = spawn('nice', ['-n', '10', 'sh', '-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    const pgid = group.pid!;
    try {
      for (let i = 0; i < 50 && members(pgid).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect(members(pgid).map((pid) => getPriority(pid))).toEqual([10, 10]);
      if (process.getuid?.() !== 0) {
        // Lowering a niceness needs root: the group is left as it is, without an error.
        expect(raiseGroupPriority(pgid, 0)).toBe(0);
        return;
      }
      expect(raiseGroupPriority(pgid, 0)).toBe(2);
      expect(members(pgid).map((pid) => getPriority(pid))).toEqual([0, 0]);
      // A waiter at nice 10 leaves a build at normal priority as it is.
      expect(raiseGroupPriority(pgid, 10)).toBe(0);
      expect(members(pgid).map((pid) => getPriority(pid))).toEqual([0, 0]);
    } finally {
      process.kill(-pgid, 'SIGKILL');
    }
  });
});
