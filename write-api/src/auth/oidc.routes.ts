import { randomBytes, randomUUID } from 'node:crypto';
import { ForbiddenError, NotFoundError, ssoMessages, UnauthorizedError, userMessages } from '@bugtrail/domain';
import { readJson } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { settle, type WriteApiDeps } from '../deps.js';
import { authAnswer, createAccount, loadUser, signupMode } from './auth.routes.js';
import { startMfaChallenge } from './mfa.js';
import { OidcLogin, oidcLimits, SsoRefused } from './oidc.js';
import { hashPassword } from './passwords.js';

/** The browser's half of a flow: the state it was given, sent back only to these paths. */
const stateCookie = 'bugtrail_oidc_state';
const cookiePath = '/api/auth/oidc';

export const oidcFinishBody = z.object({ code: z.string().min(1).max(200) });

/**
 * Single sign-on (api.md "People"): GET /api/auth/oidc (is it set up, and the button's
 * name), GET /start (to the provider), GET /callback (back from it), POST /finish (the
 * app trades the one-time code for a session). Accounts are matched by the provider's
 * verified email; a new one is a tester. The GETs change things (a flow, an account),
 * so the proxy sends /api/auth/oidc to write-api whatever the method (ADR 018).
 */
export function createOidcRoutes(deps: WriteApiDeps) {
  const now = () => deps.now?.() ?? new Date();
  const base = deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;
  // Back into the app: under PUBLIC_URL when set, else this same origin.
  const appBase = deps.config.publicUrl ?? '';
  const login = deps.config.oidc
    ? new OidcLogin(deps.config.oidc, deps.pool, deps.logger, `${base}/api/auth/oidc/callback`)
    : null;
  const app = new Hono();

  app.get('/', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(login ? { enabled: true, name: login.name } : { enabled: false });
  });

  app.get('/start', async (c) => {
    if (!login) throw new NotFoundError(ssoMessages.notConfigured);
    try {
      const { url, state } = await login.start(now());
      setCookie(c, stateCookie, state, {
        path: cookiePath,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET, which carries it.
        sameSite: 'Lax',
        secure: new URL(base).protocol === 'https:',
        maxAge: oidcLimits.flowSeconds,
      });
      c.header('Cache-Control', 'no-store');
      return c.redirect(url.href, 302);
    } catch (error) {
      return refuse(c, error);
    }
  });

  app.get('/callback', async (c) => {
    if (!login) throw new NotFoundError(ssoMessages.notConfigured);
    const cookieState = getCookie(c, stateCookie);
    deleteCookie(c, stateCookie, { path: cookiePath });
    try {
      const identity = await login.finish(new URL(c.req.url).searchParams, cookieState, now());
      const userId = await accountFor(c, identity);
      const code = await login.handoff(userId, now());
      deps.logger.info('oidc.signed_in', { userId, subject: identity.subject });
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      // The code rides in the fragment: never sent to a server, never in a log.
      return c.redirect(`${appBase}/sso#code=${code}`, 303);
    } catch (error) {
      return refuse(c, error);
    }
  });

  app.post('/finish', async (c) => {
    if (!login) throw new NotFoundError(ssoMessages.notConfigured);
    const { code } = await readJson(c, oidcFinishBody);
    const userId = await login.redeem(code, now());
    if (!userId) throw new UnauthorizedError(ssoMessages.expired);
    const { rows } = await deps.pool.query<{ deactivated_at: Date | null }>(
      'select deactivated_at from auth.credentials where user_id = $1',
      [userId],
    );
    if (!rows[0]) throw new UnauthorizedError(ssoMessages.expired);
    if (rows[0].deactivated_at) throw new ForbiddenError(userMessages.deactivated);
    const user = await loadUser(deps, userId);
    c.header('Cache-Control', 'no-store');
    // The provider vouched for the email, not for Bugtrail's second factor: MFA still asks.
    const challenge = await startMfaChallenge(deps.pool, user.id, now());
    if (challenge) return c.json(challenge, 200);
    return c.json(authAnswer(await deps.tokens.issue(user), user), 200);
  });

  /** The account with this verified email, or a new tester's; a deactivated one is refused. */
  async function accountFor(c: Context, identity: { email: string; name: string | null }): Promise<string> {
    const existing = await findByEmail(identity.email);
    if (existing) return existing;
    // By invitation only: the provider vouches for who someone is, not that an admin invited them.
    if ((await signupMode(deps)) === 'invitation') throw new SsoRefused('invitation');
    const userId = randomUUID();
    const name = (identity.name ?? identity.email.split('@')[0]!).slice(0, 100);
    try {
      const handled = await createAccount(deps, c, {
        userId,
        name,
        email: identity.email,
        role: 'tester',
        profileImageURL: null,
        // Nobody knows it: the person signs in through the provider, or sets one with "Forgot password".
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        via: 'oidc',
      });
      await settle(c, deps, handled.position);
      return userId;
    } catch (error) {
      // Two first sign-ins at once: the other made the account.
      const raced = await findByEmail(identity.email);
      if (raced) return raced;
      throw error;
    }
  }

  async function findByEmail(email: string): Promise<string | null> {
    const { rows } = await deps.pool.query<{ user_id: string; deactivated_at: Date | null }>(
      'select user_id, deactivated_at from auth.credentials where lower(email) = $1',
      [email],
    );
    if (rows[0]?.deactivated_at) throw new SsoRefused('deactivated');
    return rows[0]?.user_id ?? null;
  }

  /** A browser goes back to the login page, which shows the code's text; a script gets the text as JSON. */
  function refuse(c: Context, error: unknown) {
    const isBrowser = (c.req.header('accept') ?? '').includes('text/html');
    // Our own fault (the database, a bug) is a 500 for a script; a browser still lands on the login page.
    if (!(error instanceof SsoRefused) && !isBrowser) throw error;
    const code = error instanceof SsoRefused ? error.code : 'failed';
    deps.logger[code === 'failed' ? 'warn' : 'info']('oidc.refused', { code, reason: (error as Error).message });
    c.header('Cache-Control', 'no-store');
    if (isBrowser) return c.redirect(`${appBase}/login?sso_error=${code}`, 303);
    return c.json({ message: ssoMessages[code] }, code === 'deactivated' || code === 'invitation' ? 403 : 400);
  }

  return app;
}
