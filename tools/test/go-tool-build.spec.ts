import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGoTool } from './go-tool-build';
import { GoToolFiles } from './go-tool-cache';
import type { GoTool } from './go-tools';
import { groupMembers } from '../process/process-table';

/** A module of ours holding one `main` package, built as the runner builds Jaeger. */
function localTool(dir: string, name: string, main: string, files: Record<string, string> = {}): GoTool {
  const module = join(dir, name);
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, 'go.mod'), `module example.local/${name}\n\ngo 1.24\n`);
  writeFileSync(join(module, 'main.go'), main);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(module, file), text);
  return { name, pkg: '.', version: 'v0.0.1', source: { kind: 'our-module', dir: module } };
}

const HELLO = 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello from a built tool") }\n';

describe('tools built from Go source (the runner builds them in the background)', () => {
  let work: string;
  const cacheBefore = process.env.TAILSYNC_TOOLS_CACHE;

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'go-tool-'));
    process.env.TAILSYNC_TOOLS_CACHE = join(work, 'cache');
  });

  afterEach(() => {
    if (cacheBefore === undefined) delete process.env.TAILSYNC_TOOLS_CACHE;
    else process.env.TAILSYNC_TOOLS_CACHE = cacheBefore;
    rmSync(work, { recursive: true, force: true });
  });

  it('builds a tool once into the machine-wide cache; the next caller finds it built', async () => {
    const tool = localTool(work, 'hello', HELLO);
    const first = await buildGoTool(tool, { niceness: 0 });
    expect(first).toMatchObject({ state: 'built', path: expect.stringMatching(new RegExp(`^${join(work, 'cache', 'go-bin')}/hello@v0\\.0\\.1-[0-9a-f]{10}/hello$`)) });
    const path = (first as { path: string }).path;
    expect(spawnSync(path, { encoding: 'utf8' }).stdout).toBe('hello from a built tool\n');
    expect(new GoToolFiles(tool).timing()?.seconds).toBeGreaterThan(0);
    expect((first as { cpuSeconds: number }).cpuSeconds).toBeGreaterThan(0);
    expect(await buildGoTool(tool, { niceness: 0 })).toEqual({ state: 'cached', path });
  }, 120_000);

  it('builds a tool again when its build tags change (a machine holding the old build)', async () => {
    // Which greeting the binary prints depends on the `loud` tag alone.
    const main = 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(greeting) }\n';
    const plain = localTool(work, 'greet', main, { 'quiet.go': '//go:build !loud\n\npackage main\n\nconst greeting = "hello"\n', 'loud.go': '//go:build loud\n\npackage main\n\nconst greeting = "HELLO"\n' });
    const tagged: GoTool = { ...plain, tags: ['loud'] };
    const first = (await buildGoTool(plain, { niceness: 0 })) as { path: string };
    expect(await buildGoTool(tagged, { niceness: 0 })).toMatchObject({ state: 'built' });
    expect(spawnSync(first.path, { encoding: 'utf8' }).stdout).toBe('hello\n');
    expect(spawnSync(new GoToolFiles(tagged).binary, { encoding: 'utf8' }).stdout).toBe('HELLO\n');
  }, 120_000);

  it('builds once when two callers want the tool at the same moment', async () => {
    const tool = localTool(work, 'hello', HELLO);
    const outcomes = await Promise.all([buildGoTool(tool, { niceness: 0 }), buildGoTool(tool, { niceness: 0 })]);
    expect(outcomes.map((o) => o.state).sort()).toEqual(['built', 'cached']);
  }, 120_000);

  it('reports a failed build with its last lines, to the builder and to whoever waited, and keeps no binary', async () => {
    const tool = localTool(work, 'broken', 'package main\n\nfunc main() { undefinedCall() }\n');
    const [builder, waiter] = await Promise.all([buildGoTool(tool, { niceness: 0 }), buildGoTool(tool, { niceness: 0 })]);
    for (const outcome of [builder, waiter]) {
      expect(outcome.state).toBe('failed');
      expect((outcome as { report: string }).report).toMatch(/^broken v0\.0\.1 failed to build[\s\S]*undefined: undefinedCall/);
    }
    expect(existsSync(new GoToolFiles(tool).binary)).toBe(false);
  }, 120_000);

  it('takes over the lock of a build whose process died (a killed run)', async () => {
    const tool = localTool(work, 'hello', HELLO);
    const files = new GoToolFiles(tool);
    mkdirSync(`${files.dir}.lock`, { recursive: true });
    writeFileSync(join(`${files.dir}.lock`, 'pid'), '999999999');
    expect((await buildGoTool(tool, { niceness: 0 })).state).toBe('built');
    expect(existsSync(`${files.dir}.lock`)).toBe(false);
  }, 120_000);

  it('raises a niced build another process runs to the priority of a caller waiting for it', async () => {
    const tool = localTool(work, 'hello', HELLO);
    const files = new GoToolFiles(tool);
    // Another process's build at nice 10 (a shell and its child in a group of their own), holding the lock.
    const builder = spawn('nice', ['-n', '10', 'sh', '-c', 'sleep 60 & wait'], { detached: true, stdio: 'ignore' });
    const pgid = builder.pid!;
    try {
      mkdirSync(`${files.dir}.lock`, { recursive: true });
      writeFileSync(join(`${files.dir}.lock`, 'pid'), String(pgid));
      files.recordStepGroup(pgid);
      for (let i = 0; i < 50 && groupMembers(pgid).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      const waiter = buildGoTool(tool, { niceness: 0 });
      for (let i = 0; i < 50 && groupMembers(pgid).some((pid) => getPriority(pid) !== 0); i++) await new Promise((r) => setTimeout(r, 100));
      // Lowering a niceness needs root; otherwise the build goes on as it was.
      expect(groupMembers(pgid).map((pid) => getPriority(pid))).toEqual(process.getuid?.() === 0 ? [0, 0] : [10, 10]);
      // The build's later steps run no nicer than the waiter asked.
      expect(files.askedNiceness()).toBe(0);
      // The other build ends: the waiter finds the tool built.
      mkdirSync(files.dir, { recursive: true });
      writeFileSync(files.binary, '');
      files.unlock();
      expect(await waiter).toEqual({ state: 'cached', path: files.binary });
    } finally {
      process.kill(-pgid, 'SIGKILL');
    }
  }, 60_000);
});
