import { aiModels, chatMessages, NotFoundError } from '@bugtrail/domain';
import { type AuthEnv, aiModelCatalog, createUploadLinks, readQuery, requireAuth } from '@bugtrail/platform';
import { findChatFor, listChatsFor, listChatUsers, listMessages } from '@bugtrail/projector';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ReadApiDeps } from '../deps.js';

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .max(1_000_000)
    .default(1),
});

/** GET /chats, /chats/ai-models, /chats/{id}, /chats/{id}/messages (also under /api/chats). */
export function createChatsRoutes(deps: ReadApiDeps) {
  const links = createUploadLinks({ secret: deps.config.uploadsSigningSecret, pool: deps.pool });
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));

  app.get('/', async (c) => c.json(await listChatsFor(deps.db, c.var.actor.id)));
  // Before /:id: the chat model picker's choices (the spec's four, and what configured providers list).
  app.get('/ai-models', async (c) => {
    const listed = await aiModelCatalog.list(deps.pool);
    // No provider: the assistant answers nothing, and the client says so once (settings, chat).
    const configured = Boolean(deps.config.ai.openai || deps.config.ai.anthropic);
    return c.json({ models: [...new Set([...aiModels, ...listed.map((model) => model.id)])], listed, configured });
  });

  app.get('/:id', async (c) => {
    const chat = await findChatFor(deps.db, c.req.param('id'), c.var.actor.id);
    if (!chat) throw new NotFoundError(chatMessages.notFound);
    return c.json(chat);
  });

  app.get('/:id/messages', async (c) => {
    const { page } = readQuery(c, pageQuery);
    const id = c.req.param('id');
    // A private or team chat does not exist for non-members, and neither do its messages.
    if (!(await findChatFor(deps.db, id, c.var.actor.id))) throw new NotFoundError(chatMessages.notFound);
    const answer = await listMessages(deps.db, id, page);
    // The read model keeps each file's unsigned path; whoever may read the messages gets fresh links.
    const messages = await Promise.all(
      answer.messages.map(async (m) => ({ ...m, attachments: await links.signAttachments(m.attachments) })),
    );
    return c.json({ ...answer, messages });
  });

  return app;
}

/** GET /users on the chat path: everyone, as `[{ _id, name }]`, for pickers and mentions. */
export function createChatUsersRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/', async (c) => c.json(await listChatUsers(deps.db)));
  return app;
}
