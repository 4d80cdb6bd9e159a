/**
 * SSRF guard for subscriber URLs (contract, "Webhook subscriptions"): a URL is refused when its
 * host is or resolves to a loopback, private, link-local, multicast or otherwise non-public
 * address, unless WEBHOOK_ALLOW_PRIVATE_URLS=true. The check runs when a subscription is saved
 * ({@link validateWebhookUrl}) and again when each attempt connects ({@link guardedLookup}), against
 * the address actually dialled, so a DNS answer that changes in between (DNS rebinding) is caught.
 *
 * No I/O apart from DNS resolution.
 */
import * as dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** `code` of the error {@link guardedLookup} fails a connection with. */
export const SSRF_ERROR_CODE = 'ESSRF';

// IPv4 ranges that are not globally reachable (IANA IPv4 special-purpose registry).
const V4_NON_PUBLIC: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network" (0.0.0.0 reaches the local host on Linux)
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. limited broadcast 255.255.255.255
];

// IPv6 ranges inside global unicast 2000::/3 that are not globally reachable. Everything outside
// 2000::/3 is refused anyway (::, ::1, fc00::/7, fe80::/10, ff00::/8, ::/96, 100::/64, 64:ff9b:1::/48…),
// except the two forms that embed an IPv4 address, which are judged by that address.
const V6_NON_PUBLIC_IN_GLOBAL: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo 2001::/32 and benchmarking 2001:2::/48
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

const v4Blocked = new BlockList();
for (const [network, prefix] of V4_NON_PUBLIC) v4Blocked.addSubnet(network, prefix, 'ipv4');

const v6Blocked = new BlockList();
for (const [network, prefix] of V6_NON_PUBLIC_IN_GLOBAL) v6Blocked.addSubnet(network, prefix, 'ipv6');

const v6GlobalUnicast = new BlockList();
v6GlobalUnicast.addSubnet('2000::', 3, 'ipv6');

const v4Mapped = new BlockList();
v4Mapped.addSubnet('::ffff:0:0', 96, 'ipv6'); // ::ffff:a.b.c.d

const nat64 = new BlockList();
nat64.addSubnet('64:ff9b::', 96, 'ipv6'); // well-known NAT64 prefix: 64:ff9b::a.b.c.d

const sixToFour = new BlockList();
sixToFour.addSubnet('2002::', 16, 'ipv6'); // 6to4: 2002:AABB:CCDD::/48 embeds a.b.c.d

/**
 * True when `ip` is a globally reachable unicast address. False for every loopback, private,
 * CGNAT, link-local, multicast, reserved, documentation or benchmarking address, for IPv6 forms
 * embedding such an IPv4 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `64:ff9b::10.0.0.1`,
 * `2002:7f00:1::`), and for anything that is not an IP address at all (fail closed).
 * Accepts `[v6]` brackets and a `%zone` suffix.
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== 'string') return false;
  let address = ip.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);

  const family = isIP(address);
  if (family === 4) return !v4Blocked.check(address, 'ipv4');
  if (family !== 6) return false;

  if (v4Mapped.check(address, 'ipv6') || nat64.check(address, 'ipv6')) {
    const groups = ipv6Groups(address);
    return isPublicAddress(v4FromGroups(groups[6], groups[7]));
  }
  if (sixToFour.check(address, 'ipv6')) {
    const groups = ipv6Groups(address);
    return isPublicAddress(v4FromGroups(groups[1], groups[2]));
  }
  return v6GlobalUnicast.check(address, 'ipv6') && !v6Blocked.check(address, 'ipv6');
}

export type WebhookUrlCheck = { ok: true } | { ok: false; message: string };

export type ResolveAll = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface ValidateWebhookUrlOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS=true: skip the address checks (scheme and credentials still apply). */
  allowPrivate: boolean;
  /** Resolver returning every address of a host; defaults to `dns.promises.lookup(host, { all: true })`. */
  resolve?: ResolveAll;
  /** Give up resolving after this long (default 5000 ms). */
  resolveTimeoutMs?: number;
}

const NON_PUBLIC_MESSAGE = 'loopback, private, link-local, multicast or otherwise non-public address';

/**
 * One answer for a host that does not resolve and one that resolves to a non-public address, so
 * trying names cannot map which internal hosts exist.
 */
export const HOST_NOT_PUBLIC_MESSAGE = 'url host must be a public address or a name that resolves only to public addresses';

const defaultResolve: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Checks a subscriber URL: absolute `http`/`https` only, no credentials, and (unless
 * `allowPrivate`) a host that is a public IP literal or resolves only to public addresses — ANY
 * non-public address among the answers refuses it. `localhost` and `*.localhost` are refused
 * without asking DNS. Messages are meant for a `fieldErrors.url` entry and never reveal the
 * addresses a name resolved to.
 *
 * IP-literal URLs never reach a `lookup` function when connecting, so run this check again at
 * delivery time as well as using {@link guardedLookup}.
 */
export async function validateWebhookUrl(url: string, options: ValidateWebhookUrlOptions): Promise<WebhookUrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: 'url must be an absolute http or https URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: 'url must use the http or https scheme' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, message: 'url must not contain credentials' };
  }
  if (options.allowPrivate) return { ok: true };

  // WHATWG URL has already normalised IPv4 spellings (0x7f000001, 2130706433, 0177.0.0.1, 127.1)
  // to dotted quads and IPv6 literals to their compressed form, and lower-cased names.
  let host = parsed.hostname;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);

  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? { ok: true } : { ok: false, message: HOST_NOT_PUBLIC_MESSAGE };
  }
  if (host === '' || host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, message: HOST_NOT_PUBLIC_MESSAGE };
  }

  let addresses: ReadonlyArray<{ address: string }>;
  try {
    addresses = await withTimeout((options.resolve ?? defaultResolve)(host), options.resolveTimeoutMs ?? 5000);
  } catch {
    return { ok: false, message: HOST_NOT_PUBLIC_MESSAGE };
  }
  if (addresses.length === 0 || addresses.some(({ address }) => !isPublicAddress(address))) {
    return { ok: false, message: HOST_NOT_PUBLIC_MESSAGE };
  }
  return { ok: true };
}

/**
 * A `lookup` for `http.request({ lookup })`, `https.request`, an `http.Agent`, or undici's
 * `connect: { lookup }`: it resolves like `dns.lookup` and then, unless `allowPrivate`, fails with
 * an error whose `code` is `'ESSRF'` when the address about to be dialled — or, for `all: true`
 * lookups (Node's happy-eyeballs), any of the candidates — is not public. This is the
 * connect-time check against the address actually used, so DNS rebinding cannot slip past it.
 *
 * Node does not call `lookup` for IP-literal hosts: check those with {@link validateWebhookUrl}.
 */
export function guardedLookup(allowPrivate: boolean, baseLookup: typeof dns.lookup = dns.lookup): LookupFunction {
  return function ssrfGuardedLookup(hostname, options, callback) {
    // Tolerate the legacy call shapes lookup(host, cb) and lookup(host, family, cb).
    let opts: dns.LookupOptions = options;
    let done = callback;
    if (typeof options === 'function') {
      done = options as typeof callback;
      opts = {};
    } else if (typeof options === 'number') {
      opts = { family: options };
    }
    baseLookup(hostname, { ...opts }, (err, address, family) => {
      if (err || allowPrivate) {
        done(err, address, family);
        return;
      }
      const candidates = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refused = candidates.find((candidate) => !isPublicAddress(candidate));
      if (refused !== undefined) {
        const error: NodeJS.ErrnoException & { hostname?: string; address?: string } = new Error(
          `Refusing to connect to ${hostname}: it resolves to a ${NON_PUBLIC_MESSAGE}`,
        );
        error.code = SSRF_ERROR_CODE;
        error.hostname = hostname;
        error.address = refused;
        done(error, Array.isArray(address) ? [] : '', family);
        return;
      }
      done(null, address, family);
    });
  };
}

/** Splits a valid IPv6 address (as accepted by `net.isIP`) into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].map((group) => parseInt(group, 16));
}

function v4FromGroups(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('DNS resolution timed out'), { code: 'ETIMEOUT' })), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
