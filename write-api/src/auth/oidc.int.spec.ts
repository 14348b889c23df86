import { ssoMessages } from '@bugtrail/domain';
import { countStoredEvents, http, registerUser, type TestUser } from '@bugtrail/testing';
import { type OidcProviderServer, signInAtProvider, startOidcProvider } from '@bugtrail/testing/oidc';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const publicUrl = 'http://bugtrail.test';
const redirectUri = `${publicUrl}/api/auth/oidc/callback`;

/**
 * api.md "People", single sign-on, against a real OpenID provider (`oidc-provider`) on
 * 127.0.0.1; the person's browser is scripted over HTTP (web/e2e/sso.e2e.spec.ts drives a
 * real one). The product's PUBLIC_URL is a name nobody resolves: the provider's redirect
 * back is read off its Location and replayed against the test server, as a browser would.
 */
describe('single sign-on (OpenID Connect)', () => {
  let provider: OidcProviderServer;
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;

  beforeAll(async () => {
    provider = await startOidcProvider({
      redirectUri,
      accounts: {
        unverified: { email: 'unverified.person@example.com', emailVerified: false },
        'new-person': { email: 'New.Person@Example.com', emailVerified: true, name: 'Nina New' },
      },
    });
    t = await startTestSystem({
      config: {
        publicUrl,
        oidc: {
          issuer: provider.issuer,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          name: 'Acme',
        },
      },
    });
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** GET /start as a browser: the provider's URL and the state cookie it was given. */
  const start = async () => {
    const answer = await fetch(`${t.url}/api/auth/oidc/start`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(answer.status).toBe(302);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('bugtrail_oidc_state='))!;
    return { location: answer.headers.get('location')!, cookie, state: cookie.split(';')[0]!.split('=')[1]! };
  };
  const callback = (back: URL, state: string | null, accept = 'text/html') =>
    fetch(`${t.url}/api/auth/oidc/callback${back.search}`, {
      redirect: 'manual',
      headers: { accept, ...(state ? { cookie: `bugtrail_oidc_state=${state}` } : {}) },
    });
  /** The whole sign-in of `login`: the callback's answer. */
  const signIn = async (login: string) => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, redirectUri, login);
    return callback(back, flow.state);
  };
  const handoffCode = (answer: Response) => {
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${publicUrl}/sso`);
    return new URLSearchParams(location.hash.slice(1)).get('code')!;
  };
  const refusedWith = (answer: Response, code: keyof typeof ssoMessages) => {
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${publicUrl}/login?sso_error=${code}`);
  };

  it('says whether it is set up, and under which name', async () => {
    expect((await api.get('/api/auth/oidc')).body).toEqual({ enabled: true, name: 'Acme' });
  });

  it('starts with PKCE, state and nonce, the state in an HttpOnly cookie for its own paths', async () => {
    const flow = await start();
    const url = new URL(flow.location);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(url.searchParams.get('client_id')).toBe(provider.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('state')).toBe(flow.state);
    expect(flow.cookie).toMatch(/HttpOnly/i);
    expect(flow.cookie).toMatch(/SameSite=Lax/i);
    expect(flow.cookie).toMatch(/Path=\/api\/auth\/oidc/);
  });

  it('makes a new person a tester, named by the provider, matched by the verified email', async () => {
    const code = handoffCode(await signIn('new-person'));
    const finished = await api.post('/api/auth/oidc/finish', { code });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.headers.get('cache-control')).toBe('no-store');
    expect(finished.body).toMatchObject({ role: 'tester', name: 'Nina New', email: 'new.person@example.com' });
    const profile = await api.get('/api/auth/profile', finished.body.token);
    expect(profile.body.user).toMatchObject({ _id: finished.body._id, role: 'tester' });
    const { rows } = await t.system.pool.query(
      "select data from eventstore.events where stream_id = $1 and type = 'UserRegistered'",
      [`user-${finished.body._id}`],
    );
    expect(rows[0].data).toMatchObject({ role: 'tester', via: 'oidc', email: 'new.person@example.com' });

    // The one-time code is spent.
    const again = await api.post('/api/auth/oidc/finish', { code });
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(ssoMessages.expired);

    // The second sign-in finds the same account, whatever the email's case.
    const second = await api.post('/api/auth/oidc/finish', { code: handoffCode(await signIn('new-person')) });
    expect(second.body._id).toBe(finished.body._id);
  });

  it('lets a person who knows no password (single sign-on only) set up MFA within 5 minutes of signing in', async () => {
    const finished = await api.post('/api/auth/oidc/finish', { code: handoffCode(await signIn('new-person')) });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const setup = await api.post('/api/auth/mfa/setup', {}, finished.body.token);
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    // An older session of theirs needs the proof it no longer has.
    const stale = await t.system.tokens.issue(
      { id: finished.body._id, role: 'tester' },
      { authenticatedAtMs: Date.now() - 6 * 60_000 },
    );
    const refused = await api.post('/api/auth/mfa/setup', {}, stale);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Current password is required');
  });

  it('signs an existing account in by its email, keeping its role', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dev Existing');
    const events = await countStoredEvents(t.system.pool);
    const finished = await api.post('/api/auth/oidc/finish', {
      code: handoffCode(await signIn(developer.email.toUpperCase())),
    });
    expect(finished.body).toMatchObject({ _id: developer.id, role: 'developer' });
    expect(await countStoredEvents(t.system.pool)).toBe(events);
  });

  it('when sign-up is by invitation, makes no new account but still signs an existing one in', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dev Before');
    expect((await api.put('/api/auth/signup-policy', { mode: 'invitation' }, admin.token)).status).toBe(200);
    try {
      const events = await countStoredEvents(t.system.pool);
      refusedWith(await signIn('uninvited.person@example.com'), 'invitation');
      expect(await countStoredEvents(t.system.pool)).toBe(events);
      const { rows } = await t.system.pool.query('select 1 from auth.credentials where email = $1', [
        'uninvited.person@example.com',
      ]);
      expect(rows).toEqual([]);
      // A script is told why, with 403.
      const flow = await start();
      const back = await signInAtProvider(flow.location, redirectUri, 'uninvited.person@example.com');
      const asScript = await callback(back, flow.state, 'application/json');
      expect(asScript.status).toBe(403);
      expect(((await asScript.json()) as { message: string }).message).toBe(ssoMessages.invitation);

      const finished = await api.post('/api/auth/oidc/finish', { code: handoffCode(await signIn(developer.email)) });
      expect(finished.body).toMatchObject({ _id: developer.id, role: 'developer' });
    } finally {
      await api.put('/api/auth/signup-policy', { mode: 'open' }, admin.token);
    }
  });

  it('refuses an answer whose state is not the one this browser was given, and creates nothing', async () => {
    const mine = await start();
    const theirs = await start();
    const back = await signInAtProvider(theirs.location, redirectUri, 'state-victim@example.com');
    const events = await countStoredEvents(t.system.pool);
    refusedWith(await callback(back, mine.state), 'state');
    refusedWith(await callback(back, null), 'state');
    const asScript = await callback(back, mine.state, 'application/json');
    expect(asScript.status).toBe(400);
    expect(((await asScript.json()) as { message: string }).message).toBe(ssoMessages.state);
    expect(await countStoredEvents(t.system.pool)).toBe(events);
    const { rowCount } = await t.system.pool.query('select 1 from auth.credentials where email = $1', [
      'state-victim@example.com',
    ]);
    expect(rowCount).toBe(0);
  });

  it('uses a flow once: the same answer replayed is refused', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, redirectUri, 'replay@example.com');
    handoffCode(await callback(back, flow.state));
    refusedWith(await callback(back, flow.state), 'expired');
  });

  it('refuses an email the provider has not verified, and creates no account', async () => {
    const events = await countStoredEvents(t.system.pool);
    refusedWith(await signIn('unverified'), 'unverified');
    expect(await countStoredEvents(t.system.pool)).toBe(events);
    const { rowCount } = await t.system.pool.query('select 1 from auth.credentials where email = $1', [
      'unverified.person@example.com',
    ]);
    expect(rowCount).toBe(0);
  });

  it('refuses a deactivated person', async () => {
    const tester = await registerUser(t.url, 'tester', 'Tess Gone');
    expect((await api.post(`/api/users/${tester.id}/deactivate`, {}, admin.token)).status).toBe(200);
    refusedWith(await signIn(tester.email), 'deactivated');
  });

  it('refuses what the provider refused', async () => {
    const flow = await start();
    const back = new URL(`${redirectUri}?error=access_denied&state=${flow.state}&iss=${provider.issuer}`);
    refusedWith(await callback(back, flow.state), 'refused');
  });

  it('answers a bad finish body with 400 and an unknown code with 401', async () => {
    expect((await api.post('/api/auth/oidc/finish', {})).status).toBe(400);
    expect((await api.post('/api/auth/oidc/finish', { code: 'x'.repeat(500) })).status).toBe(400);
    expect((await api.post('/api/auth/oidc/finish', { code: 'not-a-code' })).status).toBe(401);
  });
});

describe('single sign-on, not set up', () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await startTestSystem({ parts: ['write-api', 'read-api'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so, and has no flow to start', async () => {
    const api = http(t.url);
    expect((await api.get('/api/auth/oidc')).body).toEqual({ enabled: false });
    const started = await api.get('/api/auth/oidc/start');
    expect(started.status).toBe(404);
    expect(started.body.message).toBe(ssoMessages.notConfigured);
  });
});
