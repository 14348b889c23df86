import { randomUUID } from 'node:crypto';
import {
  type Actor,
  ConflictError,
  ForbiddenError,
  inviteDecider,
  inviteMessages,
  isValidEmail,
  NotFoundError,
  type Role,
  resolveSignupRole,
  type SignupMode,
  signupMessages,
  signupModes,
  signupPolicyDecider,
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
import type pg from 'pg';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { storedProfileImage } from '../uploads/profile-image.js';
import { isUniqueViolation } from './accounts.js';
import { codeExpiry } from './invite-codes.js';
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
  /** When sign-up is by invitation: the code (or the link's `invite`) an admin made for a tester or developer. */
  inviteCode: z
    .union([z.string().max(100), z.number()])
    .optional()
    .nullable(),
  profileImageURL: z.string().max(2048).optional().nullable(),
  profileImageUrl: z.string().max(2048).optional().nullable(),
});

export const loginBody = z.object({ email: optionalText, password: optionalText });

export const mintCodeBody = z.object({
  role: z.enum(['admin', 'tester', 'developer'], { message: signupMessages.inviteRoleInvalid }).optional(),
});

export const signupPolicyBody = z.object({
  mode: z.enum(signupModes, { message: signupMessages.modeInvalid }),
});

/** Who may sign up now, as the write side knows it: its one stream, folded. */
export async function signupMode(deps: WriteApiDeps): Promise<SignupMode> {
  const { state } = await deps.commands.load(streams.signupPolicy(), signupPolicyDecider);
  return state.mode;
}

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

  // Not a declared command (command.ts): it is anonymous (a declaration always wants a token),
  // keys its rate limit on the client's address, and checks the invite code before the decision
  // (using it up with the credentials row in the append's transaction: createAccount).
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
    // An admin always needs an admin code; a tester or developer needs an invitation when sign-up is by invitation.
    const invitationText = body.inviteCode === undefined || body.inviteCode === null ? '' : String(body.inviteCode);
    const needsCode = role === 'admin' || (await signupMode(deps)) === 'invitation';
    if (needsCode && role !== 'admin' && !invitationText.trim()) {
      throw ValidationError.field('inviteCode', signupMessages.codeRequired);
    }
    const code = role === 'admin' ? String(body.adminInviteToken) : invitationText;
    const codeRefused = () =>
      new ForbiddenError(role === 'admin' ? userMessages.inviteInvalid : signupMessages.codeInvalid);
    if (needsCode) {
      // Reserved before the check: parallel guesses cannot outrun the limit.
      const attempt = await limits.reserveInviteCode(clientAddress(c, deps.config));
      const valid = await deps.inviteCodes.check(code, now(), role);
      if (!valid) throw codeRefused();
      if (valid !== 'bootstrap') inviteCodeId = valid.id;
      await attempt.succeeded();
    }
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
      // Used up with the account: a code a racing signup took first creates nothing.
      async (tx) => {
        if (needsCode && !(await deps.inviteCodes.consume(tx, code, userId, now(), role))) throw codeRefused();
      },
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

  // Not a declared command: the invitation's link falls back to this request's origin, which a
  // declaration's answer does not see. The code is minted in the append's transaction (ADR 026).
  app.post('/invite-codes', requireAuth(deps.tokens), requireRole('admin'), async (c) => {
    const actor = c.var.actor;
    const { role } = await readJson(c, mintCodeBody);
    const invited = role === 'tester' || role === 'developer' ? role : undefined;
    const codeId = randomUUID();
    let minted: { code: string; expiresAt: Date } | null = null;
    const at = now();
    const handled = await deps.commands.handle(
      streams.inviteCode(codeId),
      inviteDecider,
      {
        type: 'MintInviteCode',
        data: {
          codeId,
          expiresAt: codeExpiry(at, invited ?? 'admin').toISOString(),
          ...(invited ? { role: invited } : {}),
        },
        metadata: { actor, now: at.toISOString() },
      },
      commandContext(c, actor),
      {
        mustBeNew: true,
        alongside: async (tx) => {
          minted = await deps.inviteCodes.mint(codeId, actor.id, at, invited ?? 'admin', tx);
        },
      },
    );
    const position = handled.position;
    if (!minted) throw new ConflictError('This invite code was minted already');
    const { code, expiresAt } = minted as { code: string; expiresAt: Date };
    await settle(c, deps, position);
    // The code is shown once: no cache (and no Idempotency-Key record) keeps it.
    c.header('Cache-Control', 'no-store');
    const answer = { _id: codeId, code, expiresAt: expiresAt.toISOString(), singleUse: true };
    if (!invited) return c.json(answer, 201);
    // The link an admin passes on (PUBLIC_URL, else this request's origin, which the admin sees first).
    const base = deps.config.publicUrl ?? new URL(c.req.url).origin;
    const url = `${base}/signup?${new URLSearchParams({ invite: code, role: invited })}`;
    return c.json({ ...answer, role: invited, url }, 201);
  });

  // The code stops opening signups with the append, in its transaction (ADR 026), before the
  // read-your-writes wait.
  app.delete('/invite-codes/:id', requireAuth(deps.tokens), requireRole('admin'), async (c) => {
    const actor = c.var.actor;
    const codeId = c.req.param('id');
    if (!isUuid(codeId)) throw new NotFoundError(inviteMessages.notFound);
    const at = now();
    const handled = await deps.commands.handle(
      streams.inviteCode(codeId),
      inviteDecider,
      { type: 'RevokeInviteCode', data: { codeId }, metadata: { actor, now: at.toISOString() } },
      commandContext(c, actor),
      {
        retryOnConflict: true,
        alongside: async (tx) => {
          await deps.inviteCodes.revoke(codeId, at, tx);
        },
      },
    );
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
 * Makes an account: its credentials row (the unique email) and its UserRegistered event, or
 * neither (ADR 026); `alsoInTransaction` adds rows of its own (an invite code used up), and what
 * it throws creates nothing. A taken email is the spec's 400 "User already exists".
 */
export async function createAccount(
  deps: WriteApiDeps,
  c: Context,
  account: NewAccount,
  alsoInTransaction: (tx: pg.ClientBase) => Promise<void> = async () => {},
): Promise<Handled<UserState>> {
  const { userId, email, role, passwordHash, profileImageURL } = account;
  return deps.commands.handle(
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
    {
      mustBeNew: true,
      alongside: async (tx) => {
        await alsoInTransaction(tx);
        try {
          await deps.accounts.insert(tx, {
            userId,
            email,
            passwordHash,
            role,
            name: account.name.trim(),
            profileImageURL,
            passwordKnown: account.via !== 'oidc',
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw ValidationError.field('email', userMessages.userExists);
          throw error;
        }
      },
    },
  );
}

/** The user as the write side knows it: its own stream, folded. */
export async function loadUser(deps: WriteApiDeps, userId: string): Promise<RegisteredUser> {
  const { state } = await deps.commands.load(streams.user(userId), userDecider);
  if (state.status !== 'registered') throw new UnauthorizedError(userMessages.invalidCredentials);
  return state;
}

export type { Actor };
