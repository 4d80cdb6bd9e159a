import { existsSync } from 'node:fs';
import { aptInstall } from '../docker/shell';

const INSTALLED = '/usr/sbin/haproxy';

/**
 * Debian's HAProxy, the moving endpoint in front of a replicated PostgreSQL in the failover tests.
 * `HAPROXY_PATH` names another; as root on Debian it is installed when missing; otherwise this
 * throws and the test fails.
 */
export function ensureHaproxy(log: (line: string) => void): string {
  const given = process.env.HAPROXY_PATH;
  if (given) return given;
  if (existsSync(INSTALLED)) return INSTALLED;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error("HAProxy is missing: install Debian's `haproxy` package (or set HAPROXY_PATH) for the PostgreSQL failover tests");
  }
  const t0 = Date.now();
  aptInstall(['haproxy']);
  log(`haproxy installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return INSTALLED;
}
