import { ensureDebianExecutable } from '../docker/shell';

/**
 * Debian's HAProxy, the moving endpoint in front of a replicated PostgreSQL in the failover tests.
 * `HAPROXY_PATH` names another; as root on Debian it is installed when missing; otherwise this
 * throws and the test fails.
 */
export function ensureHaproxy(log: (line: string) => void): string {
  return process.env.HAPROXY_PATH || ensureDebianExecutable('/usr/sbin/haproxy', 'haproxy', '(or set HAPROXY_PATH) for the PostgreSQL failover tests', log);
}
