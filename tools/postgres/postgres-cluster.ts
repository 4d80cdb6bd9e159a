import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServerUser } from './server-user';

export interface ClusterSettings {
  initdb: string;
  clusterDir: string;
  user: string;
  password: string;
  /** Owns the cluster directory and runs initdb (see server-user.ts). */
  owner: ServerUser | undefined;
  /** Receives initdb's report. */
  log: (line: string) => void;
}

/** Messages in English whatever the machine's locale: readiness is read from the server's log. */
export const MESSAGES_LOCALE = 'C';

/** Creates the database cluster (initdb) unless `clusterDir` already holds one. */
export async function ensureCluster(s: ClusterSettings): Promise<void> {
  if (existsSync(join(s.clusterDir, 'PG_VERSION'))) return;
  mkdirSync(s.clusterDir, { recursive: true });
  // initdb reads the superuser's password from a file; only the owner may read it.
  const secretDir = mkdtempSync(join(tmpdir(), 'tailsync-initdb-'));
  const pwfile = join(secretDir, 'password');
  writeFileSync(pwfile, `${s.password}\n`, { mode: 0o600 });
  if (s.owner) {
    for (const path of [s.clusterDir, secretDir, pwfile]) chownSync(path, s.owner.uid, s.owner.gid);
  }
  try {
    const { stdout } = await promisify(execFile)(
      s.initdb,
      [`--pgdata=${s.clusterDir}`, '--auth=scram-sha-256', `--username=${s.user}`, `--pwfile=${pwfile}`, `--lc-messages=${MESSAGES_LOCALE}`, '--encoding=UTF8'],
      { uid: s.owner?.uid, gid: s.owner?.gid, env: { ...process.env, LC_MESSAGES: MESSAGES_LOCALE } },
    );
    for (const line of stdout.trimEnd().split('\n')) s.log(line);
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`initdb failed for ${s.clusterDir}: ${e.stderr?.trim() || e.message}`);
  } finally {
    rmSync(secretDir, { recursive: true, force: true });
  }
}
