import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface ServerUser {
  uid: number;
  gid: number;
}

const run = promisify(execFile);
const NAME = 'postgres';

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user
 * (created when missing); otherwise as this process's user (undefined).
 */
export async function serverUser(): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookUp = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', NAME]), run('id', ['-g', NAME])]);
    return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  };
  try {
    return await lookUp();
  } catch {
    await run('groupadd', [NAME]);
    await run('useradd', ['-g', NAME, NAME]);
    return lookUp();
  }
}
