import { describe, expect, it } from 'vitest';
import { LoopbackOrListed } from './address-list.js';

describe('LoopbackOrListed (METRICS_ALLOW)', () => {
  it('lets loopback in, in every notation, and nothing else by default', () => {
    const list = new LoopbackOrListed([]);
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(list.allows(address)).toBe(true);
    for (const address of ['10.0.0.5', '192.168.1.1', '::ffff:10.0.0.5', '2001:db8::1', 'unknown', '', undefined]) {
      expect(list.allows(address), String(address)).toBe(false);
    }
  });

  it('lets listed addresses and CIDRs in', () => {
    const list = new LoopbackOrListed(['10.1.0.0/16', ' 192.168.1.7 ', 'fd00::/8']);
    expect(list.allows('10.1.200.3')).toBe(true);
    expect(list.allows('::ffff:10.1.2.3')).toBe(true);
    expect(list.allows('192.168.1.7')).toBe(true);
    expect(list.allows('fd12::1')).toBe(true);
    expect(list.allows('10.2.0.1')).toBe(false);
    expect(list.allows('192.168.1.8')).toBe(false);
  });

  it('refuses a list entry that is not an address or CIDR', () => {
    expect(() => new LoopbackOrListed(['prometheus.internal'])).toThrow(/Not an address or CIDR/);
    expect(() => new LoopbackOrListed(['10.0.0.0/99'])).toThrow(/Not an address or CIDR/);
  });
});
