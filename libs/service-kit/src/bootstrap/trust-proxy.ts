import { isIP } from 'node:net';

/** Fastify's `trustProxy`: no proxy, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads a TRUST_PROXY setting: unset or empty is no proxy, a whole number is a hop count, else a
 * comma list of addresses, CIDR ranges and proxy-addr's named ranges. null when it is none of these.
 */
export function parseTrustProxy(setting: string | undefined): TrustProxy | null {
  const value = setting?.trim() ?? '';
  if (value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every(isTrustedEntry) ? entries : null;
}

function isTrustedEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
