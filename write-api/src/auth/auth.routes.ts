import { randomUUID } from 'node:crypto';
import {
  type Actor,
  ForbiddenError,
  inviteDecider,
  inviteMessages,
  isValidEmail,
  NotFoundError,
  type Role,
  resolveSignupRole,
  streams,
  toUserDto,
  UnauthorizedError,
  type UserState,
  userDecider,
  userMessages,
  ValidationError,
  validateRegistration,
} from '@bugtrail/domain';
import type { Handled } from '@bugtrail/eventstore';
import { type AuthEnv, clientAddress, readJson, requireAuth, requireRole } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { storedProfileImage } from '../uploads/profile-image.js';
import { startMfaChallenge } from './mfa.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { RateLimits } from './rate-limits.js';

const optionalText = z.string().max(10_000).optional().nullable();

export const registerBody = z.object({
  name: optionalText,
  email: optionalText,
  password: optionalText,
  role: optionalText,
  adminInviteToken: z.union([z.string(), z.number()]).optional().nullable(),
  profileImageURL: z.string().max(2048).optional().nullable(),
  profileImageUrl: z.string().max(2048).optional().nullable(),
});

export const loginBody = z.object({ email: optionalText, password: optionalText });

type RegisteredUser = Extract<UserState, { status: 'registered' }>;

export function authAnswer(token: string, user: RegisteredUser) {
  const dto = toUserDto(user);
  return { token, role: user.role, user: dto, ...dto };
}

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export function createAuthRoutes(deps: WriteApiDeps) {
  const limits = new RateLimits(deps.pool, deps.config.rateLimits);
  const now = () => deps.now?.() ?? new Date();
  const app = new Hono<AuthEnv>();

  app.post('/register', async (c) => {
    const body = await readJson(c, registerBody);
    const issues = validateRegistration(body);
    if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
    // Signup never offers the auditor role: only an admin grants it (PUT /api/users/{id}/role).
    const role = resolveSignupRole(body.role);
    if (role === 'invalid') throw ValidationError.field('role', 'Role must be one of admin, tester, developer');
    const email = body.email!.trim().toLowerCase();
    const profileImageURL =
      (await storedProfileImage(body.profileImageURL ?? body.profileImageUrl, deps.blobs)) ?? null;
    const userId = randomUUID();
    let inviteCodeId: string | undefined;
    if (role === 'admin') {
      // Reserved before the check: parallel guesses cannot outrun the limit.
      const attempt = await limits.reserveInviteCode(clientAddress(c, deps.config));
      const valid = await deps.inviteCodes.consume(String(body.adminInviteToken), userId, now());
      if (!valid) throw new ForbiddenError(userMessages.inviteInvalid);
      if (valid !== 'bootstrap') inviteCodeId = valid.id;
      await attempt.succeeded();
    }
    // A signup refused after this point created nothing: a minted code it used is given back.
    const releaseCode = async () => {
      if (role === 'admin') await deps.inviteCodes.release(userId).catch(() => {});
    };
    const handled = await createAccount(
      deps,
      c,
      {
        userId,
        name: body.name!,
        email,
        role,
        profileImageURL,
        passwordHash: await hashPassword(body.password!),
        ...(inviteCodeId ? { inviteCodeId } : {}),
      },
      releaseCode,
    );
    await settle(c, deps, handled.position);
    const user = handled.state as RegisteredUser;
    // A session token: no cache (and no Idempotency-Key record) keeps it.
    c.header('Cache-Control', 'no-store');
    return c.json(authAnswer(await deps.tokens.issue(user), user), 201);
  });

  app.post('/login', async (c) => {
    const body = await readJson(c, loginBody);
    const email = (body.email ?? '').trim().toLowerCase();
    const password = body.password ?? '';
    if (!isValidEmail(email)) throw ValidationError.field('email', userMessages.emailInvalid);
    if (!password) throw ValidationError.field('password', userMessages.passwordRequired);
    // Reserved before the check: parallel guesses cannot outrun the limit.
    const attempt = await limits.reserveLogin(clientAddress(c, deps.config), email);
    const { rows } = await deps.pool.query<{ user_id: string; password_hash: string; deactivated_at: Date | null }>(
      'select user_id, password_hash, deactivated_at from auth.credentials where lower(email) = $1',
      [email],
    );
    const row = rows[0];
    const ok = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), password);
    if (!row || !ok) throw new UnauthorizedError(userMessages.invalidCredentials);
    await attempt.succeeded();
    // Only the right password learns that the account is deactivated (api.md "People").
    if (row.deactivated_at) throw new ForbiddenError(userMessages.deactivated);
    const user = await loadUser(deps, row.user_id);
    // MFA on: the password alone buys a 5-minute mfaToken for /mfa/verify, not a session (mfa.ts).
    const challenge = await startMfaChallenge(deps.pool, user.id, now());
    if (challenge) {
      c.header('Cache-Control', 'no-store');
      return c.json(challenge, 200);
    }
    c.header('Cache-Control', 'no-store');
    return c.json(authAnswer(await deps.tokens.issue(user), user), 200);
  });

  app.post('/logout', requireAuth(deps.tokens), async (c) => {
    await deps.tokens.revokeAll(c.var.actor.id);
    return c.json({ message: 'Logged out' }, 200);
  });

  app.post('/invite-codes', requireAuth(deps.tokens), requireRole('admin'), async (c) => {
    const actor = c.var.actor;
    const codeId = randomUUID();
    const { code, expiresAt } = await deps.inviteCodes.mint(codeId, actor.id, now());
    let position: string | null;
    try {
      const handled = await deps.commands.handle(
        streams.inviteCode(codeId),
        inviteDecider,
        {
          type: 'MintInviteCode',
          data: { codeId, expiresAt: expiresAt.toISOString() },
          metadata: { actor, now: now().toISOString() },
        },
        commandContext(c, actor),
        { mustBeNew: true },
      );
      position = handled.position;
    } catch (error) {
      // No event, no code: it was never given to anyone.
      await deps.inviteCodes.discard(codeId).catch(() => {});
      throw error;
    }
    await settle(c, deps, position);
    // The code is shown once: no cache (and no Idempotency-Key record) keeps it.
    c.header('Cache-Control', 'no-store');
    return c.json({ _id: codeId, code, expiresAt: expiresAt.toISOString(), singleUse: true }, 201);
  });

  app.delete('/invite-codes/:id', requireAuth(deps.tokens), requireRole('admin'), async (c) => {
    const actor = c.var.actor;
    const codeId = c.req.param('id');
    if (!isUuid(codeId)) throw new NotFoundError(inviteMessages.notFound);
    const handled = await deps.commands.handle(
      streams.inviteCode(codeId),
      inviteDecider,
      { type: 'RevokeInviteCode', data: { codeId }, metadata: { actor, now: now().toISOString() } },
      commandContext(c, actor),
      { retryOnConflict: true },
    );
    await deps.inviteCodes.revoke(codeId, now());
    await settle(c, deps, handled.position);
    return c.body(null, 204);
  });

  return app;
}

export type NewAccount = {
  userId: string;
  name: string;
  email: string;
  role: Role;
  profileImageURL: string | null;
  passwordHash: string;
  inviteCodeId?: string;
  via?: 'oidc';
};

/**
 * Makes an account: its credentials row (the unique email) and its UserRegistered
 * event, or neither. `undo` runs when it is refused (a used invite code goes back).
 * A taken email is the spec's 400 "User already exists".
 */
export async function createAccount(
  deps: WriteApiDeps,
  c: Context,
  account: NewAccount,
  undo: () => Promise<void> = async () => {},
): Promise<Handled<UserState>> {
  const { userId, email, role, passwordHash, profileImageURL } = account;
  try {
    await deps.pool.query(
      `insert into auth.credentials (user_id, email, password_hash, role, name, profile_image_url)
       values ($1, $2, $3, $4, $5, $6)`,
      [userId, email, passwordHash, role, account.name.trim(), profileImageURL],
    );
  } catch (error) {
    await undo();
    if ((error as { code?: string }).code === '23505') throw ValidationError.field('email', userMessages.userExists);
    throw error;
  }
  try {
    return await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'RegisterUser',
        data: {
          userId,
          name: account.name,
          email,
          role,
          profileImageURL,
          ...(account.inviteCodeId ? { inviteCodeId: account.inviteCodeId } : {}),
          ...(account.via ? { via: account.via } : {}),
        },
        metadata: { actor: null, now: (deps.now?.() ?? new Date()).toISOString() },
      },
      { ...commandContext(c, null), actor: { id: userId, role } },
      { mustBeNew: true },
    );
  } catch (error) {
    // The account has no events: free the email again.
    await deps.pool.query('delete from auth.credentials where user_id = $1', [userId]).catch(() => {});
    await undo();
    throw error;
  }
}

/** The user as the write side knows it: its own stream, folded. */
export async function loadUser(deps: WriteApiDeps, userId: string): Promise<RegisteredUser> {
  const { state } = await deps.commands.load(streams.user(userId), userDecider);
  if (state.status !== 'registered') throw new UnauthorizedError(userMessages.invalidCredentials);
  return state;
}

export type { Actor };
