import * as dns from 'node:dns';
import type { ResolveAll } from './domain/ssrf-guard';

/** How long one DNS server gets to answer, and how many tries: a name takes at most about 2 × this. */
export const DNS_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;
/** DNS answered: there is no such name (or no address of that family). */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);
const LOOPBACK = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];

/**
 * Names resolved by c-ares (`dns.Resolver`: non-blocking sockets on the event loop) with a
 * timeout, not `dns.lookup` (getaddrinfo on libuv's four shared threads, no timeout of its own):
 * a DNS server that stalls for one domain's host can then neither hold a thread every other
 * delivery (and file and crypto work) waits for, nor hang an attempt. c-ares does not read
 * /etc/hosts, so a name DNS says does not exist (`localhost`, a hosts-file entry) is then asked
 * of getaddrinfo: an answer, not a stall, so it holds a thread only briefly.
 */
export function resolverAll(
  resolver = new dns.promises.Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES }),
  hostsFile: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true }),
): ResolveAll {
  return async (hostname) => {
    // RFC 6761: localhost is loopback, whatever DNS says (or whether it answers at all).
    if (/^(.+\.)?localhost\.?$/i.test(hostname)) return LOOPBACK;
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const answered = [v4, v6].every((r) => r.status === 'fulfilled' || NO_SUCH_NAME.has((r.reason as NodeJS.ErrnoException).code ?? ''));
    if (answered && [v4, v6].every((r) => r.status === 'rejected')) return hostsFile(hostname);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0) throw v4.status === 'rejected' ? v4.reason : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
}

/** The same resolution in `dns.lookup`'s shape, for `http.request({ lookup })` (with `all` or one address). */
export function resolverLookup(resolveAll: ResolveAll = resolverAll()): typeof dns.lookup {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family ?? 0;
    resolveAll(hostname).then(
      (found) => {
        const addresses = found.filter((a) => family === 0 || a.family === family);
        if (addresses.length === 0) return callback(Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), options.all ? [] : '');
        if (options.all) return callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : ''),
    );
  };
  return lookup as unknown as typeof dns.lookup;
}

