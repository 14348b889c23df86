import {
  type ChatAccessFacts,
  chatEventTypes,
  chatPermissions,
  eventsOf,
  evolveChat,
  initialChatState,
  streamCategory,
  streamEntityId,
  streams,
} from '@bugtrail/domain';
import { type Position, type RecordedEvent, START, verifyStore } from '@bugtrail/eventstore';
import { type AuthEnv, readQuery, requireAuth, requireRole } from '@bugtrail/platform';
import { Hono } from 'hono';
import { recentBugActivity } from '../bugs/history.js';
import type { ReadApiDeps } from '../deps.js';
import { auditActivityQuery, auditEventsQuery } from './audit.schemas.js';

const PAGE = 1000;
const encoder = new TextEncoder();

/**
 * The auditors' door to the store itself (api.md "Audit trail"), admins and auditors only:
 * `GET /api/audit/verify` checks every stream's chain; `GET /api/audit/events` streams the
 * events in global order as NDJSON for archiving elsewhere; `GET /api/audit/activity` is
 * the newest changes across all bugs, in the bug history's words (the auditor's dashboard).
 */
export function createAuditRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), requireRole('admin', 'auditor'));

  app.get('/verify', async (c) => c.json(await verifyStore(deps.store)));

  app.get('/activity', async (c) => {
    const query = readQuery(c, auditActivityQuery);
    return c.json(await recentBugActivity(deps, { before: query.before, limit: query.limit ?? 30 }));
  });

  app.get('/events', async (c) => {
    const query = readQuery(c, auditEventsQuery);
    const readerId = c.var.actor.id;
    let from: Position = query.after ?? START;
    let left = query.limit ?? Number.POSITIVE_INFINITY;
    const mayRead = chatReadability(deps, readerId);
    const nextPage = async () => {
      if (left <= 0) return [];
      const page = await deps.store.readAll(from, Math.min(PAGE, left));
      if (page.length > 0) {
        from = page[page.length - 1]!.position;
        left -= page.length;
      }
      return page;
    };
    const lines = async (page: readonly RecordedEvent[]) => {
      let text = '';
      for (const e of page) {
        const redacted = !(await mayRead(e.streamId));
        text += `${JSON.stringify({
          position: e.position,
          stream: e.streamId,
          revision: e.revision,
          type: e.type,
          data: redacted ? null : e.data,
          metadata: e.metadata,
          hash: e.hash,
          ...(redacted ? { redacted: true } : {}),
        })}\n`;
      }
      return encoder.encode(text);
    };
    // The first page is read before answering: a failure there is an error answer, not a cut connection.
    let first: RecordedEvent[] | null = await nextPage();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const page = first ?? (await nextPage());
        first = null;
        if (page.length === 0) return controller.close();
        controller.enqueue(await lines(page));
      },
    });
    return c.body(body, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
  });

  return app;
}

/**
 * Whether the reader may see the content of an event's stream in the export: a private or
 * team chat's streams (`chat-{id}`, `chatmsgs-{id}`) only to its participants, as the chat
 * itself (api.md "Second round of safety"). Decided from the chat's own stream (its last
 * known type and members, a deleted chat's too), once per chat per export.
 */
function chatReadability(deps: ReadApiDeps, readerId: string) {
  const known = new Map<string, Promise<boolean>>();
  return (streamId: string): Promise<boolean> | boolean => {
    const category = streamCategory(streamId);
    if (category !== 'chat' && category !== 'chatmsgs') return true;
    const chatId = streamEntityId(streamId);
    let answer = known.get(chatId);
    if (!answer) {
      answer = deps.store.readStream(streams.chat(chatId)).then((events) => {
        let state = initialChatState();
        let facts: ChatAccessFacts | null = null;
        for (const e of eventsOf(events, ...chatEventTypes)) {
          state = evolveChat(state, e);
          if (state.status === 'active') facts = state;
        }
        // A chat stream without its creation (none should exist) is shown to no one but as a hash.
        return facts !== null && chatPermissions.canSee(readerId, facts);
      });
      known.set(chatId, answer);
    }
    return answer;
  };
}
