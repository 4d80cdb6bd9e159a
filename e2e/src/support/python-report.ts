import { spawn } from 'node:child_process';

/** What a Python checker printed: its exit code, the JSON report on its last line (null if none), everything it wrote. */
export interface PythonReport<T> {
  code: number | null;
  report: T | null;
  output: string;
}

/** Runs a Python script to its end; its report is the JSON on the last line of its stdout. */
export function runPythonReport<T>(python: string, args: string[], env: NodeJS.ProcessEnv): Promise<PythonReport<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let report: T | null = null;
      try {
        report = JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
      } catch {
        report = null;
      }
      resolve({ code, report, output: `${stdout}${stderr}` });
    });
  });
}
