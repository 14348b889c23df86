import { describe, expect, it } from 'vitest';
import { AddressPolicy, type DnsLookup, NotPublicAddressError } from './public-address.js';

const noDns: DnsLookup = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const resolvesTo =
  (...addresses: string[]): DnsLookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('AddressPolicy (webhook URLs)', () => {
  const policy = new AddressPolicy();

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ])('refuses %s in any notation', async (url) => {
    await expect(policy.check(new URL(url), noDns)).rejects.toBeInstanceOf(NotPublicAddressError);
  });

  it('lets public unicast addresses through', async () => {
    await expect(policy.check(new URL('https://93.184.216.34/hook'), noDns)).resolves.toBeUndefined();
    await expect(
      policy.check(new URL('https://[2606:2800:220:1:248:1893:25c8:1946]/'), noDns),
    ).resolves.toBeUndefined();
  });

  it('judges a name by every address it resolves to', async () => {
    await expect(
      policy.check(new URL('https://hooks.example.com/'), resolvesTo('93.184.216.34')),
    ).resolves.toBeUndefined();
    await expect(
      policy.check(new URL('https://hooks.example.com/'), resolvesTo('93.184.216.34', '10.0.0.7')),
    ).rejects.toThrow('10.0.0.7');
    await expect(policy.check(new URL('http://localhost/'), resolvesTo('127.0.0.1'))).rejects.toBeInstanceOf(
      NotPublicAddressError,
    );
  });

  it('accepts an unresolvable name on save only', async () => {
    await expect(policy.check(new URL('https://nowhere.invalid/'), noDns, 'allow')).resolves.toBeUndefined();
    await expect(policy.check(new URL('https://nowhere.invalid/'), noDns)).rejects.toThrow('ENOTFOUND');
  });

  it('opens exactly the hosts, addresses and ranges WEBHOOK_ALLOW_HOSTS lists', async () => {
    const open = new AddressPolicy(['127.0.0.1', '10.20.0.0/16', 'hooks.internal', '[::1]']);
    await expect(open.check(new URL('http://127.0.0.1:8080/'), noDns)).resolves.toBeUndefined();
    await expect(open.check(new URL('http://[::1]/'), noDns)).resolves.toBeUndefined();
    await expect(open.check(new URL('http://10.20.3.4/'), noDns)).resolves.toBeUndefined();
    await expect(open.check(new URL('http://hooks.internal/'), resolvesTo('192.168.9.9'))).resolves.toBeUndefined();
    await expect(open.check(new URL('http://10.21.0.1/'), noDns)).rejects.toBeInstanceOf(NotPublicAddressError);
    await expect(open.check(new URL('http://127.0.0.2/'), noDns)).rejects.toBeInstanceOf(NotPublicAddressError);
  });

  it('refuses a private answer at connect time through its lookup', async () => {
    const lookup = policy.connectLookup(resolvesTo('192.168.0.10'), 'rebound.example.com');
    const error = await new Promise<Error | null>((resolve) => lookup('rebound.example.com', {}, (e) => resolve(e)));
    expect(error).toBeInstanceOf(NotPublicAddressError);
    const ok = await new Promise<unknown>((resolve) =>
      policy.connectLookup(resolvesTo('93.184.216.34'), 'x')('x', {}, (e, address) => resolve(e ?? address)),
    );
    expect(ok).toBe('93.184.216.34');
  });
});
