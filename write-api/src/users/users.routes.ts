import {
  apiTokenMessages,
  type ChangeRole,
  ForbiddenError,
  isValidEmail,
  NotFoundError,
  normaliseEmail,
  resolveRole,
  streams,
  toUserDto,
  type UserState,
  userDecider,
  userMessages,
  ValidationError,
  validatePassword,
} from '@bugtrail/domain';
import { type AuthEnv, readJson, requireAuth, requireRole, sessionAuthenticatedAt } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { decideAgainOnLockedAdmins, isUniqueViolation } from '../auth/accounts.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { storedProfileImage } from '../uploads/profile-image.js';

export const profileMessages = {
  updated: 'Profile updated successfully',
  forbidden: "You don't have permission to update this user",
  notFound: 'User not found',
  emailTaken: 'Email is already in use',
} as const;

const optionalText = z.string().max(10_000).nullable().optional();

export const profileBody = z.object({
  name: optionalText,
  email: optionalText,
  password: optionalText,
  /** Needed when callers change their own password or email (api.md "Account safety"). */
  currentPassword: optionalText,
  role: z.unknown().optional(),
  profileImageURL: z.string().max(2048).nullable().optional(),
  profileImageUrl: z.string().max(2048).nullable().optional(),
});

/** PUT /api/users/{id}/role: any text; the decider says which roles exist (400 otherwise). */
export const roleBody = z.object({ role: z.string().max(100) });

type RegisteredUser = Extract<UserState, { status: 'registered' }>;

/**
 * PUT /api/users/{id}: name, email, password, profile image; self or admin. The role
 * is not writable. Email and password live in the write-side credentials table as
 * well as (email only) in the events: the row changes in the transaction of the event's
 * append (ADR 026), and a taken email appends nothing.
 */
export function createUserRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  app.use('*', requireAuth(deps.tokens));

  const update = async (c: Context<AuthEnv>) => {
    const actor = c.var.actor;
    const userId = c.req.param('id') ?? '';
    if (actor.id !== userId && actor.role !== 'admin') {
      // api.md: an id that does not exist is 404; an existing user the caller may not change, 403.
      if (!(await deps.accounts.exists(userId))) throw new NotFoundError(profileMessages.notFound);
      throw new ForbiddenError(profileMessages.forbidden);
    }
    const body = await readJson(c, profileBody);

    // Blank password = "unchanged" (profile forms leave it empty).
    const password = body.password ? body.password : null;
    if (password !== null) {
      const issue = validatePassword(password);
      if (issue) throw ValidationError.field('password', issue);
    }
    const email = body.email == null ? undefined : body.email;
    if (email !== undefined && !isValidEmail(email)) throw ValidationError.field('email', userMessages.emailInvalid);
    const image = await storedProfileImage(
      body.profileImageURL !== undefined ? body.profileImageURL : body.profileImageUrl,
      deps.blobs,
    );
    const passwordHash = password === null ? null : await hashPassword(password);

    const { rows } = await deps.pool.query<{ email: string; role: string; password_hash: string }>(
      'select email, role, password_hash from auth.credentials where user_id = $1',
      [userId],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(profileMessages.notFound);
    const emailChanges = email !== undefined && normaliseEmail(email) !== row.email.toLowerCase();
    // A script's token never changes who can sign in as its owner (api.md "Integrations").
    if (actor.apiToken && (passwordHash !== null || emailChanges))
      throw new ForbiddenError(apiTokenMessages.notWithToken);
    if (actor.id === userId && (passwordHash !== null || emailChanges)) {
      // A stolen session must not be enough to take the account over.
      if (!body.currentPassword) throw ValidationError.field('currentPassword', userMessages.currentPasswordRequired);
      if (!(await verifyPassword(row.password_hash, body.currentPassword))) {
        throw new ForbiddenError(userMessages.currentPasswordIncorrect);
      }
    }
    if (body.role !== undefined && body.role !== null && body.role !== '' && resolveRole(body.role) !== row.role) {
      throw ValidationError.field('role', userMessages.roleNotWritable);
    }
    const handled = await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'UpdateProfile',
        data: {
          userId,
          ...(body.name != null ? { name: body.name } : {}),
          ...(email !== undefined ? { email } : {}),
          ...(image !== undefined ? { profileImageURL: image || null } : {}),
          passwordChanged: passwordHash !== null,
        },
        metadata: { actor, now: now() },
      },
      commandContext(c, actor),
      {
        alongside: async (tx, { state }) => {
          const profile = state as RegisteredUser;
          try {
            await deps.accounts.update(tx, userId, {
              ...(emailChanges ? { email: normaliseEmail(email) } : {}),
              ...(passwordHash !== null ? { passwordHash } : {}),
              name: profile.name,
              profileImageURL: profile.profileImageURL,
            });
          } catch (error) {
            if (isUniqueViolation(error)) throw ValidationError.field('email', profileMessages.emailTaken);
            throw error;
          }
        },
      },
    );

    const user = handled.state as RegisteredUser;
    let token: string | undefined;
    if (passwordHash !== null) {
      // Every session token issued so far and every API token stop working (a token minted with
      // a stolen session must not outlive the new password); the caller who changed their own
      // password gets a fresh one so this browser stays signed in.
      await deps.tokens.endEverything(userId);
      if (actor.id === userId) token = await deps.tokens.issue(user);
    }
    await settle(c, deps, handled.position);
    const dto = toUserDto(user);
    if (token) c.header('Cache-Control', 'no-store');
    return c.json({ message: profileMessages.updated, user: dto, ...dto, ...(token ? { token } : {}) }, 200);
  };

  app.put('/:id', update);
  app.patch('/:id', update);

  /**
   * PUT /api/users/{id}/role (admin): the role lives in the events and in the
   * credentials row (what commands and logins decide by); both change in one
   * transaction, as the email does above. There the admins' rows are locked and the
   * change decided again on them, so two admins demoting each other at once cannot
   * both pass the last-admin rule. The
   * user's tokens carry the old role: they are revoked (the caller who changed their
   * own role gets a fresh one, as after a password change).
   */
  app.put('/:id/role', requireRole('admin'), async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    const body = await readJson(c, roleBody);
    if (!(await deps.accounts.exists(userId))) throw new NotFoundError(profileMessages.notFound);
    const command: ChangeRole = {
      type: 'ChangeRole',
      data: { userId, role: body.role, adminIds: await deps.accounts.activeAdmins() },
      metadata: { actor, now: now() },
    };
    const handled = await deps.commands.handle(streams.user(userId), userDecider, command, commandContext(c, actor), {
      alongside: async (tx, decided) => {
        await decideAgainOnLockedAdmins(deps.accounts, tx, command, decided);
        await deps.accounts.update(tx, userId, { role: (decided.state as RegisteredUser).role });
      },
    });

    const user = handled.state as RegisteredUser;
    let token: string | undefined;
    if (handled.newEvents.length > 0) {
      await deps.tokens.revokeAll(userId);
      // The new token keeps the old one's sign-in time: a role change proves nobody's identity.
      if (actor.id === userId) {
        const signedInAt = await sessionAuthenticatedAt(c, deps.tokens);
        token = await deps.tokens.issue(
          user,
          signedInAt === null ? { authenticatedAtMs: 0 } : { authenticatedAtMs: signedInAt },
        );
      }
    }
    await settle(c, deps, handled.position);
    if (token) c.header('Cache-Control', 'no-store');
    return c.json({ user: toUserDto(user), ...(token ? { token } : {}) }, 200);
  });
  return app;
}
