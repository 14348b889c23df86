import {
  type Actor,
  type DeactivateUser,
  ForbiddenError,
  isValidEmail,
  NotFoundError,
  normaliseEmail,
  type ReactivateUser,
  streams,
  toUserDto,
  type UserState,
  userDecider,
  userMessages,
  ValidationError,
  validatePassword,
} from '@bugtrail/domain';
import type { Handled } from '@bugtrail/eventstore';
import { type AuthEnv, clientAddress, readJson, requireAuth, requireRole } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { decideAgainOnLockedAdmins } from '../auth/accounts.js';
import { hasMfa, removeMfa } from '../auth/mfa.js';
import { PasswordResets } from '../auth/password-resets.js';
import { hashPassword } from '../auth/passwords.js';
import { RateLimits } from '../auth/rate-limits.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

type RegisteredUser = Extract<UserState, { status: 'registered' }>;

const optionalText = z.string().max(10_000).nullable().optional();
export const forgotBody = z.object({ email: optionalText });
export const resetBody = z.object({ token: optionalText, password: optionalText });

/**
 * The absolute link an admin is handed (POST /api/users/{id}/reset-link): PUBLIC_URL, else the
 * request's own origin, which the admin sees before passing it on. Never for mail: a mailed link
 * is built from PUBLIC_URL alone (reset-mail.ts).
 */
export function resetLinkUrl(c: Context, deps: WriteApiDeps, token: string): string {
  const base = deps.config.publicUrl ?? new URL(c.req.url).origin;
  return `${base}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Managing people (api.md "People"), admin only: deactivate and reactivate someone, and
 * make a one-time password-reset link for them. Each is an event on the person's stream
 * with the admin as actor; the credentials row (what logins decide by) and the reset links
 * change in the append's transaction (ADR 026), as for a role change.
 */
export function createPeopleRoutes(deps: WriteApiDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const resets = new PasswordResets(deps.pool);
  const app = new Hono<AuthEnv>();
  // Per route, not app.use('*'): mounted beside the other /api/users routes, a wildcard would guard theirs too.
  const adminOnly = [requireAuth(deps.tokens), requireRole('admin')] as const;

  /**
   * Deactivates or reactivates someone: decided on the active admins, decided again on their
   * locked rows in the append's transaction (the last-admin rule), the row changed there too.
   */
  async function setActive(c: Context<AuthEnv>, userId: string, active: boolean): Promise<Handled<UserState>> {
    const actor = c.var.actor;
    if (!(await deps.accounts.exists(userId))) throw new NotFoundError('User not found');
    const command: DeactivateUser | ReactivateUser = active
      ? { type: 'ReactivateUser', data: { userId }, metadata: { actor, now: now() } }
      : {
          type: 'DeactivateUser',
          data: { userId, adminIds: await deps.accounts.activeAdmins() },
          metadata: { actor, now: now() },
        };
    return deps.commands.handle(streams.user(userId), userDecider, command, commandContext(c, actor), {
      alongside: async (tx, decided) => {
        if (command.type === 'DeactivateUser') await decideAgainOnLockedAdmins(deps.accounts, tx, command, decided);
        await deps.accounts.update(tx, userId, { deactivated: (decided.state as RegisteredUser).deactivated });
      },
    });
  }

  app.post('/:id/deactivate', ...adminOnly, async (c) => {
    const userId = c.req.param('id');
    const handled = await setActive(c, userId, false);
    // Every token stops at once, on every replica; their live streams close with them.
    if (handled.newEvents.length > 0) await deps.tokens.revokeAll(userId);
    await settle(c, deps, handled.position);
    return c.json({ user: toUserDto(handled.state as RegisteredUser) }, 200);
  });

  app.post('/:id/reactivate', ...adminOnly, async (c) => {
    const userId = c.req.param('id');
    const handled = await setActive(c, userId, true);
    await settle(c, deps, handled.position);
    return c.json({ user: toUserDto(handled.state as RegisteredUser) }, 200);
  });

  app.post('/:id/reset-link', ...adminOnly, async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    if (!(await deps.accounts.exists(userId))) throw new NotFoundError('User not found');
    const at = new Date(now());
    const link = PasswordResets.newLink(at);
    const handled = await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'RequestPasswordReset',
        data: { userId, expiresAt: link.expiresAt.toISOString(), byEmail: false },
        metadata: { actor, now: at.toISOString() },
      },
      commandContext(c, actor),
      { retryOnConflict: true, alongside: (tx) => resets.store(tx, link, userId, at) },
    );
    await settle(c, deps, handled.position);
    // The link is a credential: no cache (and no Idempotency-Key record) keeps it.
    c.header('Cache-Control', 'no-store');
    return c.json({ url: resetLinkUrl(c, deps, link.token), expiresAt: link.expiresAt.toISOString() }, 200);
  });

  /**
   * DELETE /api/users/{id}/mfa (admin): the person's TOTP secret, recovery codes and open
   * sign-in challenges go, with an `MfaReset` event on their stream (audited, in history, and
   * the person is told by notification and mail), in one transaction: both or neither.
   */
  app.delete('/:id/mfa', ...adminOnly, async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    if (!(await deps.accounts.exists(userId))) throw new NotFoundError('User not found');
    // Nothing to reset: no event, nobody told of a change that did not happen.
    const handled = (await hasMfa(deps.pool, userId))
      ? await deps.commands.handle(
          streams.user(userId),
          userDecider,
          { type: 'ResetMfa', data: { userId }, metadata: { actor, now: now() } },
          commandContext(c, actor),
          { retryOnConflict: true, alongside: (tx) => removeMfa(tx, userId) },
        )
      : null;
    if (handled) await settle(c, deps, handled.position);
    return c.json({ message: 'Two-factor authentication reset', mfaEnabled: false }, 200);
  });

  return app;
}

/**
 * POST /api/auth/forgot and /api/auth/reset (api.md "People"): anyone, no token. Forgot
 * answers 202 whether or not the account exists, so it tells nobody who has one.
 */
export function createPasswordResetRoutes(deps: WriteApiDeps, mailer: ResetMailer | null) {
  const now = () => deps.now?.() ?? new Date();
  const resets = new PasswordResets(deps.pool);
  const limits = new RateLimits(deps.pool, deps.config.rateLimits);
  const app = new Hono<AuthEnv>();

  app.post('/forgot', async (c) => {
    const body = await readJson(c, forgotBody);
    const email = (body.email ?? '').trim();
    if (!isValidEmail(email)) throw ValidationError.field('email', userMessages.emailInvalid);
    if (!mailer) return c.json({ message: userMessages.resetNotMailed }, 202);
    // Over the hour's limit for this address or client address: the same answer, nothing mailed
    // (a 429 would tell a stranger which addresses they have been mailing).
    const allowed = await limits.allowForgotMail(clientAddress(c, deps.config), normaliseEmail(email));
    if (!allowed) return c.json({ message: userMessages.resetRequested }, 202);
    const { rows } = await deps.pool.query<{ user_id: string; name: string | null; deactivated_at: Date | null }>(
      'select user_id, name, deactivated_at from auth.credentials where lower(email) = $1',
      [normaliseEmail(email)],
    );
    const row = rows[0];
    if (row && !row.deactivated_at) {
      const at = now();
      const link = PasswordResets.newLink(at);
      try {
        const handled = await deps.commands.handle(
          streams.user(row.user_id),
          userDecider,
          {
            type: 'RequestPasswordReset',
            data: { userId: row.user_id, expiresAt: link.expiresAt.toISOString(), byEmail: true },
            metadata: { actor: null, now: at.toISOString() },
          },
          commandContext(c, null),
          { retryOnConflict: true, alongside: (tx) => resets.store(tx, link, row.user_id, at) },
        );
        await mailer.sendResetLink({
          to: normaliseEmail(email),
          name: row.name ?? '',
          token: link.token,
          expiresAt: link.expiresAt,
          position: handled.position,
        });
      } catch (error) {
        deps.logger.error('password reset mail not queued', { error, userId: row.user_id });
      }
    }
    return c.json({ message: userMessages.resetRequested }, 202);
  });

  app.post('/reset', async (c) => {
    const body = await readJson(c, resetBody);
    const token = (body.token ?? '').trim();
    if (!token) throw ValidationError.field('token', userMessages.resetLinkInvalid);
    const password = body.password ?? '';
    const issue = validatePassword(password);
    if (issue) throw ValidationError.field('password', issue);
    const passwordHash = await hashPassword(password);
    const at = now();
    const userId = await resets.holder(token, at);
    if (!userId) throw ValidationError.field('token', userMessages.resetLinkInvalid);
    const { rows } = await deps.pool.query<{ role: string; deactivated_at: Date | null }>(
      'select role, deactivated_at from auth.credentials where user_id = $1',
      [userId],
    );
    const row = rows[0];
    if (!row) throw ValidationError.field('token', userMessages.resetLinkInvalid);
    if (row.deactivated_at) throw new ForbiddenError(userMessages.deactivated);
    const actor: Actor = { id: userId, role: row.role as Actor['role'] };
    const handled = await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'UpdateProfile',
        data: { userId, passwordChanged: true },
        metadata: { actor, now: at.toISOString() },
      },
      { ...commandContext(c, actor) },
      {
        retryOnConflict: true,
        // Used up with the reset: a link that a racing reset took first appends nothing.
        alongside: async (tx, { state }) => {
          if ((await resets.consume(tx, token, at)) !== userId) {
            throw ValidationError.field('token', userMessages.resetLinkInvalid);
          }
          if ((state as RegisteredUser).deactivated) throw new ForbiddenError(userMessages.deactivated);
          await deps.accounts.update(tx, userId, { passwordHash });
        },
      },
    );
    // Whoever held a session or minted an API token (perhaps whoever took the account) is out everywhere.
    await deps.tokens.endEverything(userId);
    await settle(c, deps, handled.position);
    return c.json({ message: userMessages.passwordReset }, 200);
  });

  return app;
}

/** Sends the reset link by mail (reset-mail.ts); null when SMTP or PUBLIC_URL is not set up. */
export type ResetMailer = {
  sendResetLink(mail: {
    to: string;
    name: string;
    /** The one-time token; the mailer puts it in a link to PUBLIC_URL. */
    token: string;
    expiresAt: Date;
    position: string | null;
  }): Promise<void>;
};
