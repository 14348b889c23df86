import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery'; // registerUser's
const STEP_MS = 30_000;

/** The code an authenticator app shows `steps` time steps from now (a code works once, so tests move on). */
function codeAt(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * STEP_MS });
}

/** A 6-digit code that matches none of the steps the server accepts now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => codeAt(secret, steps)));
  for (let n = 123_456; ; n += 1) {
    const code = String(n % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

describe('TOTP two-factor authentication (api.md "Account safety")', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (user: TestUser) => api.post('/api/auth/login', { email: user.email, password: PASSWORD });

  /** A user with MFA on, the enabling code spent at the current step. */
  async function userWithMfa(): Promise<{ user: TestUser; secret: string; recoveryCodes: string[] }> {
    const user = await registerUser(t.url, 'developer');
    const setup = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(setup.status).toBe(200);
    const enabled = await api.post('/api/auth/mfa/enable', { code: codeAt(setup.body.secret) }, user.token);
    expect(enabled.status).toBe(200);
    return { user, secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
  }

  it('needs the current password to start a setup, even from a session that has just signed in', async () => {
    const user = await registerUser(t.url, 'tester');
    const missing = await api.post('/api/auth/mfa/setup', {}, user.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Current password is required');
    const wrong = await api.post('/api/auth/mfa/setup', { currentPassword: 'not the password' }, user.token);
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe('Current password is incorrect');
    // Nothing was set up by the refused calls: enable has no pending secret to match.
    expect((await api.post('/api/auth/mfa/enable', { code: '123456' }, user.token)).status).toBe(400);
    const setup = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(setup.status).toBe(200);
  });

  it('refuses a new setup while MFA is on (409), so a session cannot swap in its own secret', async () => {
    const { user, secret } = await userWithMfa();
    const again = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(again.status).toBe(409);
    // The owner's authenticator still signs them in.
    const mfaToken = await mfaTokenOf(user);
    expect((await api.post('/api/auth/mfa/verify', { mfaToken, code: codeAt(secret, 1) })).status).toBe(200);
  });

  it('stores the secret encrypted (not the base32 secret), and sign-in with a TOTP code still works', async () => {
    const { user, secret } = await userWithMfa();
    const { rows } = await t.system.pool.query<{ secret: string }>('select secret from auth.mfa where user_id = $1', [
      user.id,
    ]);
    const stored = rows[0]!.secret;
    expect(stored).not.toBe(secret);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(0, 8));
    const mfaToken = await mfaTokenOf(user);
    expect((await api.post('/api/auth/mfa/verify', { mfaToken, code: codeAt(secret, 1) })).status).toBe(200);
  });

  it('still reads a secret stored in plain text before the encryption', async () => {
    const { user, secret } = await userWithMfa();
    await t.system.pool.query('update auth.mfa set secret = $2 where user_id = $1', [user.id, secret]);
    const mfaToken = await mfaTokenOf(user);
    expect((await api.post('/api/auth/mfa/verify', { mfaToken, code: codeAt(secret, 1) })).status).toBe(200);
  });

  async function mfaTokenOf(user: TestUser): Promise<string> {
    const answer = await login(user);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    return answer.body.mfaToken;
  }

  it('sets up, enables, and then asks for a code at login that verify exchanges for the session', async () => {
    const user = await registerUser(t.url, 'tester');

    const setup = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl } = setup.body;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Bugtrail:${user.email}?secret=${secret}&issuer=Bugtrail`);
    expect(setup.headers.get('cache-control')).toBe('no-store');

    // Pending: the login is still the password alone.
    const pending = await login(user);
    expect(pending.status).toBe(200);
    expect(pending.body.token).toEqual(expect.any(String));

    const missing = await api.post('/api/auth/mfa/enable', {}, user.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Authentication code is required');
    const wrong = await api.post('/api/auth/mfa/enable', { code: wrongCode(secret) }, user.token);
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe('Invalid authentication code');

    const enableCode = codeAt(secret);
    const enabled = await api.post('/api/auth/mfa/enable', { code: enableCode }, user.token);
    expect(enabled.status).toBe(200);
    const recoveryCodes: string[] = enabled.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    expect((await api.post('/api/auth/mfa/enable', { code: codeAt(secret, 1) }, user.token)).status).toBe(409);
    const again = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Two-factor authentication is already enabled');

    // The session that turned MFA on keeps working.
    expect((await api.get('/api/auth/profile', user.token)).status).toBe(200);

    const mfaToken = await mfaTokenOf(user);
    // The mfaToken grants nothing else.
    const asBearer = await api.get('/api/auth/profile', mfaToken);
    expect(asBearer.status).toBe(401);
    expect((await api.post('/api/auth/mfa/setup', undefined, mfaToken)).status).toBe(401);
    expect((await api.post('/api/auth/logout', undefined, mfaToken)).status).toBe(401);

    // The code that enabled MFA was used at its step: not again.
    const replayed = await api.post('/api/auth/mfa/verify', { mfaToken, code: enableCode });
    expect(replayed.status).toBe(401);
    expect(replayed.body.message).toBe('Invalid authentication code');

    const code = codeAt(secret, 1);
    const verified = await api.post('/api/auth/mfa/verify', { mfaToken, code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ role: 'tester', _id: user.id, email: user.email, user: { _id: user.id } });
    const profile = await api.get('/api/auth/profile', verified.body.token);
    expect(profile.status).toBe(200);
    expect(profile.body.user._id).toBe(user.id);

    // An mfaToken gives one session at most.
    const spent = await api.post('/api/auth/mfa/verify', { mfaToken, code: codeAt(secret, 1) });
    expect(spent.status).toBe(401);
    expect(spent.body.message).toBe('Two-factor sign-in expired. Please log in again');

    // A recovery code works once.
    const withRecovery = await api.post('/api/auth/mfa/verify', {
      mfaToken: await mfaTokenOf(user),
      code: recoveryCodes[0],
    });
    expect(withRecovery.status).toBe(200);
    expect(withRecovery.body.token).toEqual(expect.any(String));
    const secondUse = await api.post('/api/auth/mfa/verify', {
      mfaToken: await mfaTokenOf(user),
      code: recoveryCodes[0],
    });
    expect(secondUse.status).toBe(401);
    expect(secondUse.body.message).toBe('Invalid authentication code');
    // Typed as read off paper: capitals, no dash.
    const typed = await api.post('/api/auth/mfa/verify', {
      mfaToken: await mfaTokenOf(user),
      code: recoveryCodes[1]!.replace('-', '').toUpperCase(),
    });
    expect(typed.status).toBe(200);

    // Nothing secret is stored in the clear or put in an event.
    const { rows: stored } = await t.system.pool.query<{ code_hash: string }>(
      'select code_hash from auth.mfa_recovery_codes where user_id = $1',
      [user.id],
    );
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recoveryCodes.some((c) => row.code_hash.includes(c.replace('-', '')))).toBe(false);
    const { rows: leaks } = await t.system.pool.query(
      'select 1 from eventstore.events where data::text like $1 or data::text like $2 or data::text like $3',
      [`%${secret}%`, `%${recoveryCodes[2]}%`, `%${mfaToken}%`],
    );
    expect(leaks).toEqual([]);
  });

  it('refuses unknown and expired mfaTokens', async () => {
    const { user, secret } = await userWithMfa();
    const unknown = await api.post('/api/auth/mfa/verify', { mfaToken: 'not-a-token', code: codeAt(secret, 1) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Two-factor sign-in expired. Please log in again');

    const mfaToken = await mfaTokenOf(user);
    await t.system.pool.query(
      "update auth.mfa_challenges set expires_at = now() - interval '1 second' where user_id = $1",
      [user.id],
    );
    const expired = await api.post('/api/auth/mfa/verify', { mfaToken, code: codeAt(secret, 1) });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('Two-factor sign-in expired. Please log in again');

    const blank = await api.post('/api/auth/mfa/verify', { code: codeAt(secret, 1) });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('mfaToken is required');
    const noCode = await api.post('/api/auth/mfa/verify', { mfaToken: await mfaTokenOf(user) });
    expect(noCode.status).toBe(400);
    expect(noCode.body.message).toBe('Authentication code is required');
  });

  it('caps guesses: 5 codes per mfaToken, then 10 wrong codes per user per 15 minutes', async () => {
    const { user, secret } = await userWithMfa();
    const first = await mfaTokenOf(user);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await api.post('/api/auth/mfa/verify', { mfaToken: first, code: wrongCode(secret) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe('Invalid authentication code');
    }
    // The token is dead: even the right code is refused.
    const dead = await api.post('/api/auth/mfa/verify', { mfaToken: first, code: codeAt(secret, 1) });
    expect(dead.status).toBe(401);
    expect(dead.body.message).toBe('Two-factor sign-in expired. Please log in again');

    // A new login buys a new token, but not a new budget: parallel guesses included.
    const second = await mfaTokenOf(user);
    const guesses = await Promise.all(
      Array.from({ length: 5 }, () => api.post('/api/auth/mfa/verify', { mfaToken: second, code: wrongCode(secret) })),
    );
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 401, 401]);
    const third = await mfaTokenOf(user);
    const limited = await api.post('/api/auth/mfa/verify', { mfaToken: third, code: codeAt(secret, 1) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // When the window has passed, the right code works again.
    await t.system.pool.query("update auth.mfa set failed_since = now() - interval '16 minutes' where user_id = $1", [
      user.id,
    ]);
    const ok = await api.post('/api/auth/mfa/verify', { mfaToken: third, code: codeAt(secret, 1) });
    expect(ok.status).toBe(200);
  });

  it('turns MFA off only with a code and the correct current password', async () => {
    const { user, secret, recoveryCodes } = await userWithMfa();
    const missing = await api.post('/api/auth/mfa/disable', { code: codeAt(secret, 1) }, user.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Current password is required');
    const noCode = await api.post('/api/auth/mfa/disable', { currentPassword: PASSWORD }, user.token);
    expect(noCode.status).toBe(400);
    expect(noCode.body.message).toBe('Authentication code is required');
    const wrongPassword = await api.post(
      '/api/auth/mfa/disable',
      { code: codeAt(secret, 1), currentPassword: 'not my password' },
      user.token,
    );
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body.message).toBe('Current password is incorrect');
    const wrongCode_ = await api.post(
      '/api/auth/mfa/disable',
      { code: wrongCode(secret), currentPassword: PASSWORD },
      user.token,
    );
    expect(wrongCode_.status).toBe(403);
    expect(wrongCode_.body.message).toBe('Invalid authentication code');
    expect((await api.post('/api/auth/mfa/disable', { code: codeAt(secret, 1) })).status).toBe(401);

    const off = await api.post(
      '/api/auth/mfa/disable',
      { code: codeAt(secret, 1), currentPassword: PASSWORD },
      user.token,
    );
    expect(off.status).toBe(200);

    // Back to the password alone; the old recovery codes are gone.
    const plain = await login(user);
    expect(plain.status).toBe(200);
    expect(plain.body.token).toEqual(expect.any(String));
    const { rows } = await t.system.pool.query('select 1 from auth.mfa_recovery_codes where user_id = $1', [user.id]);
    expect(rows).toEqual([]);
    const notOn = await api.post(
      '/api/auth/mfa/disable',
      { code: recoveryCodes[0], currentPassword: PASSWORD },
      user.token,
    );
    expect(notOn.status).toBe(400);
    expect(notOn.body.message).toBe('Two-factor authentication is not enabled');
  });

  it('disables with a recovery code too, and enable needs a setup first', async () => {
    const { user, recoveryCodes } = await userWithMfa();
    const off = await api.post(
      '/api/auth/mfa/disable',
      { code: recoveryCodes[9], currentPassword: PASSWORD },
      user.token,
    );
    expect(off.status).toBe(200);

    const fresh = await registerUser(t.url, 'admin');
    const noSetup = await api.post('/api/auth/mfa/enable', { code: '123456' }, fresh.token);
    expect(noSetup.status).toBe(400);
    expect(noSetup.body.message).toBe('Set up two-factor authentication first');
  });

  it('leaves users without MFA exactly as before', async () => {
    const user = await registerUser(t.url, 'developer');
    const answer = await login(user);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ['_id', 'email', 'name', 'profileImageURL', 'profileImageUrl', 'role', 'token', 'user'].sort(),
    );
    expect(answer.body.mfaRequired).toBeUndefined();
    expect((await api.get('/api/auth/profile', answer.body.token)).status).toBe(200);
    const wrong = await api.post('/api/auth/login', { email: user.email, password: 'nope nope nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid email or password');
  });

  it('publishes the MFA operations in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    for (const path of ['setup', 'enable', 'disable', 'verify']) {
      expect(doc.paths[`/api/auth/mfa/${path}`]?.post, path).toBeDefined();
    }
    expect(doc.paths['/api/auth/mfa/verify'].post.security).toEqual([]);
  });
});
