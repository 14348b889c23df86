import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { proxyHops } from '../config.js';
import { cameOverHttps, clientAddress, publicBaseUrl } from './client-address.js';

/** What the app makes of a request's forwarding headers with `trustProxy` proxies in front. */
async function seen(trustProxy: number, headers: Record<string, string>) {
  const app = new Hono();
  app.get('/', (c) =>
    c.json({
      address: clientAddress(c, { trustProxy }),
      https: cameOverHttps(c, { trustProxy }),
      base: publicBaseUrl(c, { trustProxy, publicUrl: undefined }),
    }),
  );
  // No socket in app.request: the address falls back to 'unknown'.
  const answer = await app.request('http://bugs.example/', { headers });
  return answer.json();
}

describe('TRUST_PROXY=N: the client address is the N-th X-Forwarded-For entry from the right', () => {
  it('one proxy (the shipped nginx appends what it sees): the rightmost entry, whatever the client claims', async () => {
    expect(await seen(1, { 'x-forwarded-for': '203.0.113.9' })).toMatchObject({ address: '203.0.113.9' });
    expect(await seen(1, { 'x-forwarded-for': '10.0.0.1, 198.51.100.7' })).toMatchObject({
      address: '198.51.100.7',
    });
    expect(await seen(1, { 'x-forwarded-for': '1.1.1.1,2.2.2.2 , 203.0.113.9' })).toMatchObject({
      address: '203.0.113.9',
    });
  });

  it('two proxies: the second from the right; fewer entries than proxies is the socket’s address', async () => {
    expect(await seen(2, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.2' })).toMatchObject({
      address: '203.0.113.9',
    });
    expect(await seen(2, { 'x-forwarded-for': '203.0.113.9' })).toMatchObject({ address: 'unknown' });
  });

  it('no proxy: forwarding headers are ignored', async () => {
    expect(
      await seen(0, { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', host: 'bugs.example' }),
    ).toEqual({ address: 'unknown', https: false, base: 'http://bugs.example' });
  });

  it('the scheme is the proxy’s (rightmost) X-Forwarded-Proto; X-Forwarded-Host is never read', async () => {
    expect(
      await seen(1, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', host: 'bugs.example' }),
    ).toMatchObject({ https: true, base: 'https://bugs.example' });
    expect(await seen(1, { 'x-forwarded-proto': 'https, http' })).toMatchObject({ https: false });
  });
});

describe('proxyHops (TRUST_PROXY)', () => {
  it('reads a number of proxies; true/yes is one; unset, 0 and false are none', () => {
    expect(proxyHops(undefined)).toBe(0);
    expect(proxyHops('')).toBe(0);
    expect(proxyHops('0')).toBe(0);
    expect(proxyHops('false')).toBe(0);
    expect(proxyHops('no')).toBe(0);
    expect(proxyHops('true')).toBe(1);
    expect(proxyHops('yes')).toBe(1);
    expect(proxyHops('1')).toBe(1);
    expect(proxyHops('2')).toBe(2);
    expect(() => proxyHops('maybe')).toThrow(/TRUST_PROXY/);
  });
});
