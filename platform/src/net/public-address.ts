import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

/** A DNS lookup as node:dns's `lookup(host, { all: true })` answers; tests put their own in. */
export type DnsLookup = (host: string) => Promise<readonly { address: string; family: number }[]>;

export const systemLookup: DnsLookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export class NotPublicAddressError extends Error {
  override readonly name = 'NotPublicAddressError';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

/** The host part of a URL without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * Which addresses an outgoing request (a webhook delivery) may reach: public unicast ones
 * only, by ipaddr.js's own ranges, whatever the notation (an IPv4-mapped IPv6 address is
 * judged as the IPv4 address it carries). Not public: unspecified, loopback, private,
 * link-local (the cloud metadata address among them), unique-local, carrier-grade NAT,
 * multicast, broadcast, reserved and the translation ranges. `allow` (WEBHOOK_ALLOW_HOSTS)
 * lets named hosts, addresses and CIDRs through, for a self-hosted network.
 */
export class AddressPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(allow: readonly string[] = []) {
    for (const entry of allow) {
      const text = entry
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1');
      if (!text) continue;
      if (text.includes('/') && isCidr(text)) this.ranges.push(ipaddr.parseCIDR(text));
      else if (ipaddr.isValid(text)) {
        const address = ipaddr.process(text);
        this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else this.hosts.add(text);
    }
  }

  /** True when the URL's host name is listed as allowed (then its addresses are not judged). */
  allowsHost(host: string): boolean {
    return this.hosts.has(host.toLowerCase());
  }

  /** True when a request may connect to this address. */
  allowsAddress(text: string): boolean {
    if (!ipaddr.isValid(text)) return false;
    const address = ipaddr.process(text);
    if (this.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))) {
      return true;
    }
    if (address.range() !== 'unicast') return false;
    // IPv6: only global unicast (2000::/3); `::7f00:1` (IPv4-compatible) and the like are not.
    return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6);
  }

  /** Refuses a URL whose host is a literal address a request may not reach (a name passes: see `connectLookup`). */
  checkLiteral(url: URL): void {
    const host = hostOf(url);
    if (ipaddr.isValid(host) && !this.allowsHost(host) && !this.allowsAddress(host)) {
      throw new NotPublicAddressError(host, host);
    }
  }

  /**
   * Refuses a URL whose host is, or resolves to, an address a request may not reach.
   * `unresolved: 'allow'` accepts a name that does not resolve now (on save: it is checked
   * again when connecting); on connect nothing unresolved gets through.
   */
  async check(url: URL, lookup: DnsLookup, unresolved: 'allow' | 'refuse' = 'refuse'): Promise<void> {
    const host = hostOf(url);
    if (this.allowsHost(host)) return;
    if (ipaddr.isValid(host)) return this.checkLiteral(url);
    let addresses: readonly { address: string }[];
    try {
      addresses = await withTimeout(lookup(host), LOOKUP_TIMEOUT_MS, host);
    } catch (error) {
      if (unresolved === 'allow') return;
      throw error;
    }
    for (const { address } of addresses) {
      if (!this.allowsAddress(address)) throw new NotPublicAddressError(host, address);
    }
  }

  /**
   * A `lookup` for node:http(s) that answers only addresses this policy allows: the check
   * happens on the very addresses the socket connects to, after DNS, so a name that turns
   * private between save and delivery (DNS rebinding) is refused.
   */
  connectLookup(resolve: DnsLookup, host: string) {
    const allowedName = this.allowsHost(host);
    return (
      hostname: string,
      options: { all?: boolean },
      callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
    ) => {
      resolve(hostname).then(
        (addresses) => {
          const refused = allowedName ? undefined : addresses.find(({ address }) => !this.allowsAddress(address));
          if (refused) return callback(new NotPublicAddressError(hostname, refused.address), '', 0);
          if (addresses.length === 0)
            return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          if (options.all)
            return callback(
              null,
              addresses.map((a) => ({ address: a.address, family: a.family })),
            );
          const first = addresses[0]!;
          callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** A resolver that does not answer in time counts as no answer. */
const LOOKUP_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no DNS answer for ${host}`), { code: 'ETIMEOUT' })), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}
