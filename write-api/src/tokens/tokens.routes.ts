import { apiTokenMessages, createApiTokenBody, ForbiddenError } from '@bugtrail/domain';
import { type AuthEnv, readJson, readQuery, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireFreshProof } from '../auth/fresh-proof.js';
import type { WriteApiDeps } from '../deps.js';

export const listTokensQuery = z.object({
  all: z.enum(['true', 'false'], { error: 'all must be true or false' }).optional(),
});

/**
 * Personal API tokens (api.md "Integrations"): `POST /api/tokens` answers the secret once;
 * `GET /api/tokens` lists the caller's (an admin's `?all=true`: everyone's); `DELETE
 * /api/tokens/{id}` revokes one's own (an admin: anyone's). Tokens are credentials, kept
 * beside the others (ApiTokens), so all three are write-api's, the GET included. No API token
 * may mint another (api-token-limits.ts, at the door).
 */
export function createTokenRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const tokens = deps.tokens.apiTokens;
  app.use('*', requireAuth(deps.tokens));

  app.post('/', async (c) => {
    const { currentPassword, ...body } = await readJson(c, createApiTokenBody);
    // A token outlives the session that mints it: a stolen session must not be enough.
    await requireFreshProof(c, deps, currentPassword, 'anyone');
    const created = await tokens.create(c.var.actor.id, body);
    // The secret is shown once: never kept by a cache or an Idempotency-Key replay.
    c.header('Cache-Control', 'no-store');
    return c.json(created, 201);
  });

  app.get('/', async (c) => {
    const { all } = readQuery(c, listTokensQuery);
    const everyone = all === 'true' && (c.var.actor.role === 'admin' || c.var.actor.role === 'auditor');
    if (all === 'true' && !everyone) throw new ForbiddenError(apiTokenMessages.onlyAdminsListAll);
    return c.json({ tokens: await tokens.list(c.var.actor.id, everyone) });
  });

  app.delete('/:id', async (c) => {
    const { userId } = await tokens.revoke(c.req.param('id'), c.var.actor);
    // Live streams opened with it end now, on every replica.
    await deps.tokens.credentialRevoked(userId);
    return c.body(null, 204);
  });

  return app;
}
