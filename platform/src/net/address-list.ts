import ipaddr from 'ipaddr.js';

/**
 * A list of addresses and CIDRs (`127.0.0.1,10.0.0.0/8,::1`) an address is matched against,
 * whatever its notation (an IPv4-mapped IPv6 address is the IPv4 address it carries).
 * Loopback addresses are always in: the operator's own machine.
 */
export class LoopbackOrListed {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(list: readonly string[] = []) {
    for (const entry of list) {
      const text = entry.trim().replace(/^\[(.*)\]$/, '$1');
      if (!text) continue;
      if (text.includes('/')) {
        const range = parseCidr(text);
        if (!range) throw new Error(`Not an address or CIDR: ${entry}`);
        this.ranges.push(range);
      } else if (ipaddr.isValid(text)) {
        const address = ipaddr.process(text);
        this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else throw new Error(`Not an address or CIDR: ${entry}`);
    }
  }

  allows(text: string | undefined): boolean {
    if (!text) return false;
    const bare = text.replace(/^\[(.*)\]$/, '$1');
    if (!ipaddr.isValid(bare)) return false;
    const address = ipaddr.process(bare);
    if (address.range() === 'loopback') return true;
    return this.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}

function parseCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    const [address, bits] = ipaddr.parseCIDR(text);
    // `::ffff:10.0.0.0/104` is the IPv4 range it carries.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [address, bits];
  } catch {
    return null;
  }
}
