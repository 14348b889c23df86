import {
  type Actor,
  ForbiddenError,
  isValidEmail,
  NotFoundError,
  normaliseEmail,
  streams,
  toUserDto,
  type UserState,
  userDecider,
  userMessages,
  ValidationError,
  validatePassword,
} from '@bugtrail/domain';
import type { Handled } from '@bugtrail/eventstore';
import { type AuthEnv, readJson, requireAuth, requireRole } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { PasswordResets } from '../auth/password-resets.js';
import { hashPassword } from '../auth/passwords.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

type RegisteredUser = Extract<UserState, { status: 'registered' }>;

const optionalText = z.string().max(10_000).nullable().optional();
export const preferencesBody = z.object({ email: z.unknown().optional() });
export const forgotBody = z.object({ email: optionalText });
export const resetBody = z.object({ token: optionalText, password: optionalText });

/** The absolute link a reset token travels in: PUBLIC_URL, else the request's own origin. */
export function resetLinkUrl(c: Context, deps: WriteApiDeps, token: string): string {
  const base = deps.config.publicUrl ?? new URL(c.req.url).origin;
  return `${base}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Managing people (api.md "People"), admin only: deactivate and reactivate someone, and
 * make a one-time password-reset link for them. Each is an event on the person's stream
 * with the admin as actor; the credentials row (what logins decide by) changes in the same
 * transaction, as for a role change.
 */
export function createPeopleRoutes(deps: WriteApiDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const resets = new PasswordResets(deps.pool);
  const app = new Hono<AuthEnv>();
  // Per route, not app.use('*'): mounted beside the other /api/users routes, a wildcard would guard theirs too.
  const adminOnly = [requireAuth(deps.tokens), requireRole('admin')] as const;

  /** Runs a user command with the active admins' rows locked (the last-admin rule), then syncs the row. */
  async function withAdminsLocked(
    c: Context<AuthEnv>,
    userId: string,
    command: (adminIds: string[], actor: Actor) => Parameters<typeof userDecider.decide>[0],
  ): Promise<Handled<UserState>> {
    const actor = c.var.actor;
    const client = await deps.pool.connect();
    try {
      await client.query('begin');
      const { rows: admins } = await client.query<{ user_id: string }>(
        `select user_id from auth.credentials where role = 'admin' and deactivated_at is null order by user_id for update`,
      );
      const { rowCount } = await client.query('select 1 from auth.credentials where user_id = $1 for update', [userId]);
      if (!rowCount) throw new NotFoundError('User not found');
      const handled = await deps.commands.handle(
        streams.user(userId),
        userDecider,
        command(
          admins.map((r) => r.user_id),
          actor,
        ),
        commandContext(c, actor),
      );
      const state = handled.state as RegisteredUser;
      const sync = () =>
        client.query(
          `update auth.credentials set deactivated_at = case when $2 then coalesce(deactivated_at, now()) end
           where user_id = $1`,
          [userId, state.deactivated],
        );
      await sync();
      try {
        await client.query('commit');
      } catch (error) {
        // The event is stored: bring the row in line with it rather than leave them disagreeing.
        if (handled.position !== null) {
          await deps.pool
            .query(
              `update auth.credentials set deactivated_at = case when $2 then coalesce(deactivated_at, now()) end
               where user_id = $1`,
              [userId, state.deactivated],
            )
            .catch((repair: unknown) => deps.logger.error('credentials repair failed', { error: repair, userId }));
        }
        throw error;
      }
      return handled;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  app.post('/:id/deactivate', ...adminOnly, async (c) => {
    const userId = c.req.param('id');
    const handled = await withAdminsLocked(c, userId, (adminIds, actor) => ({
      type: 'DeactivateUser',
      data: { userId, adminIds },
      metadata: { actor, now: now() },
    }));
    // Every token stops at once, on every replica; their live streams close with them.
    if (handled.newEvents.length > 0) await deps.tokens.revokeAll(userId);
    await settle(c, deps, handled.position);
    return c.json({ user: toUserDto(handled.state as RegisteredUser) }, 200);
  });

  app.post('/:id/reactivate', ...adminOnly, async (c) => {
    const userId = c.req.param('id');
    const handled = await withAdminsLocked(c, userId, (_adminIds, actor) => ({
      type: 'ReactivateUser',
      data: { userId },
      metadata: { actor, now: now() },
    }));
    await settle(c, deps, handled.position);
    return c.json({ user: toUserDto(handled.state as RegisteredUser) }, 200);
  });

  app.post('/:id/reset-link', ...adminOnly, async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    if (!(await deps.accounts.exists(userId))) throw new NotFoundError('User not found');
    const { token, expiresAt } = await resets.create(userId, new Date(now()));
    let handled: Handled<UserState>;
    try {
      handled = await deps.commands.handle(
        streams.user(userId),
        userDecider,
        {
          type: 'RequestPasswordReset',
          data: { userId, expiresAt: expiresAt.toISOString(), byEmail: false },
          metadata: { actor, now: now() },
        },
        commandContext(c, actor),
        { retryOnConflict: true },
      );
    } catch (error) {
      await resets.discard(token).catch(() => {});
      throw error;
    }
    await settle(c, deps, handled.position);
    // The link is a credential: no cache (and no Idempotency-Key record) keeps it.
    c.header('Cache-Control', 'no-store');
    return c.json({ url: resetLinkUrl(c, deps, token), expiresAt: expiresAt.toISOString() }, 200);
  });

  /** PUT /api/users/{id}/preferences: the caller's own (an admin: anyone's), as an event of their stream. */
  app.put('/:id/preferences', requireAuth(deps.tokens), async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    const body = await readJson(c, preferencesBody);
    if (actor.id !== userId && actor.role !== 'admin') {
      if (!(await deps.accounts.exists(userId))) throw new NotFoundError('User not found');
      throw new ForbiddenError("You don't have permission to update this user");
    }
    const handled = await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'SetNotificationPreferences',
        data: { userId, email: typeof body.email === 'string' ? body.email : '' },
        metadata: { actor, now: now() },
      },
      commandContext(c, actor),
      { retryOnConflict: true },
    );
    await settle(c, deps, handled.position);
    return c.json({ preferences: { email: (handled.state as RegisteredUser).emailPreference } }, 200);
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
  const app = new Hono<AuthEnv>();

  app.post('/forgot', async (c) => {
    const body = await readJson(c, forgotBody);
    const email = (body.email ?? '').trim();
    if (!isValidEmail(email)) throw ValidationError.field('email', userMessages.emailInvalid);
    if (!mailer) return c.json({ message: userMessages.resetNotMailed }, 202);
    const { rows } = await deps.pool.query<{ user_id: string; name: string | null; deactivated_at: Date | null }>(
      'select user_id, name, deactivated_at from auth.credentials where lower(email) = $1',
      [normaliseEmail(email)],
    );
    const row = rows[0];
    if (row && !row.deactivated_at) {
      const { token, expiresAt } = await resets.create(row.user_id, now());
      try {
        const handled = await deps.commands.handle(
          streams.user(row.user_id),
          userDecider,
          {
            type: 'RequestPasswordReset',
            data: { userId: row.user_id, expiresAt: expiresAt.toISOString(), byEmail: true },
            metadata: { actor: null, now: now().toISOString() },
          },
          commandContext(c, null),
          { retryOnConflict: true },
        );
        await mailer.sendResetLink({
          to: normaliseEmail(email),
          name: row.name ?? '',
          url: resetLinkUrl(c, deps, token),
          expiresAt,
          position: handled.position,
        });
      } catch (error) {
        await resets.discard(token).catch(() => {});
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
    const client = await deps.pool.connect();
    let userId: string;
    let handled: Handled<UserState>;
    try {
      await client.query('begin');
      const found = await resets.consume(client, token, now());
      if (!found) throw ValidationError.field('token', userMessages.resetLinkInvalid);
      userId = found;
      const { rows } = await client.query<{ role: string; deactivated_at: Date | null }>(
        'select role, deactivated_at from auth.credentials where user_id = $1 for update',
        [userId],
      );
      const row = rows[0];
      if (!row) throw ValidationError.field('token', userMessages.resetLinkInvalid);
      if (row.deactivated_at) throw new ForbiddenError(userMessages.deactivated);
      await client.query(
        'update auth.credentials set password_hash = $2, password_changed_at = now() where user_id = $1',
        [userId, passwordHash],
      );
      const actor: Actor = { id: userId, role: row.role as Actor['role'] };
      handled = await deps.commands.handle(
        streams.user(userId),
        userDecider,
        {
          type: 'UpdateProfile',
          data: { userId, passwordChanged: true },
          metadata: { actor, now: now().toISOString() },
        },
        { ...commandContext(c, actor) },
        { retryOnConflict: true },
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    // Whoever held a session (perhaps whoever took the account) is signed out everywhere.
    await deps.tokens.revokeAll(userId);
    await settle(c, deps, handled.position);
    return c.json({ message: userMessages.passwordReset }, 200);
  });

  return app;
}

/** Sends the reset link by mail (mail/reset-mailer.ts); null when SMTP is not set up. */
export type ResetMailer = {
  sendResetLink(mail: {
    to: string;
    name: string;
    url: string;
    expiresAt: Date;
    position: string | null;
  }): Promise<void>;
};
