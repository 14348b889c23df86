import { NotFoundError, rolePermissions, toUserDto } from '@bugtrail/domain';
import { type AuthEnv, requireAuth, requireRole } from '@bugtrail/platform';
import {
  countUserBugs,
  findUser,
  listDevelopers,
  listLiveInviteCodes,
  listUsers,
  noUserBugCounts,
  readSignupPolicy,
  type UserRow,
} from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';

export const userRowToDto = (row: UserRow) =>
  toUserDto({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    profileImageURL: row.profile_image_url,
    deactivated: row.deactivated,
  });

/** GET /api/auth/profile (the caller) and GET /api/auth/mail (whether this server mails at all). */
export function createProfileRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.get('/profile', requireAuth(deps.tokens), async (c) => {
    const row = await findUser(deps.db, c.var.actor.id);
    if (!row) throw new NotFoundError('User not found');
    return c.json({ user: { ...userRowToDto(row), preferences: { email: row.email_preference } } });
  });
  // Whether anything is mailed at all (SMTP_URL): without it the client offers no mail choices.
  // Its own route: the spec pins the profile answer to `{ user }`.
  app.get('/mail', requireAuth(deps.tokens), (c) => c.json({ configured: Boolean(deps.config.smtpUrl) }));
  // The admin's invite codes (api.md "People"): live ones only, never the code itself.
  app.get('/invite-codes', requireAuth(deps.tokens), requireRole('admin'), async (c) => {
    const codes = await listLiveInviteCodes(deps.db, new Date());
    c.header('Cache-Control', 'no-store');
    return c.json({
      codes: codes.map((code) => ({
        _id: code.id,
        createdBy: code.createdBy ? { _id: code.createdBy.id, name: code.createdBy.name } : null,
        createdAt: code.createdAt.toISOString(),
        expiresAt: code.expiresAt.toISOString(),
        role: code.role,
      })),
    });
  });
  // Who may sign up (issue 40): public, as the signup page asks before anyone has an account.
  app.get('/signup-policy', async (c) => {
    const policy = await readSignupPolicy(deps.db);
    c.header('Cache-Control', 'no-store');
    return c.json({ mode: policy.mode });
  });
  return app;
}

/** GET /api/users, /api/users/{id} */
export function createUsersRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));

  app.get('/', async (c) => {
    const rows = await listUsers(deps.db);
    if (rolePermissions.readsEverything(c.var.actor)) {
      // The team list: everyone with their task counters, from the bug counters.
      const counts = await countUserBugs(
        deps.db,
        rows.map((r) => r.id),
      );
      return c.json(
        rows.map((r) => ({
          ...userRowToDto(r),
          createdAt: r.created_at.toISOString(),
          ...(counts.get(r.id) ?? noUserBugCounts),
        })),
      );
    }
    // Everyone else gets a directory: enough for chat pickers and names.
    return c.json(
      rows.map((r) => {
        const { email: _email, ...rest } = userRowToDto(r);
        return rest;
      }),
    );
  });

  // The assign-developers pickers (admin, tester; auditors read what admins read). Active developers only:
  // someone deactivated stays named on the bugs they had, but is not offered for new work.
  app.get('/developers', requireRole('admin', 'auditor', 'tester'), async (c) => {
    const rows = (await listDevelopers(deps.db)).filter((row) => !row.deactivated);
    return c.json(
      rows.map((r) => toUserDto({ id: r.id, name: r.name, email: r.email, profileImageURL: r.profile_image_url })),
    );
  });

  app.get('/:id', async (c) => {
    const row = await findUser(deps.db, c.req.param('id'));
    if (!row) throw new NotFoundError('User not found');
    const dto = userRowToDto(row);
    if (!rolePermissions.readsEverything(c.var.actor) && c.var.actor.id !== row.id) {
      const { email: _email, ...rest } = dto;
      return c.json(rest);
    }
    return c.json(dto);
  });
  return app;
}
