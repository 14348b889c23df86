import type { Actor } from '@bugtrail/domain';
import { type AuthEnv, bearerToken, requireAuth } from '@bugtrail/platform';
import { projectRightsAmong, restrictedProjects } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { LiveHub, type LiveSink, type Subscription } from './live-hub.js';

/**
 * The body of one live response. Bytes are enqueued synchronously into a plain
 * ReadableStream whose queue is the connection's buffer: the server reads it as the
 * socket drains, so the queue's size says how far behind the client is. (Hono's
 * streamSSE goes through a TransformStream and a second stream per write, about ten
 * times the cost; at 5,000 subscribers that alone passed the 100 ms budget.)
 */
function createSseBody(onCancel: () => void): { body: ReadableStream<Uint8Array>; sink: LiveSink } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let queued = 0;
  let isOpen = true;
  const waiters: (() => void)[] = [];
  const wakeWaiters = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        queued = Math.max(0, -(controller.desiredSize ?? 0));
        if (queued === 0) wakeWaiters();
      },
      cancel() {
        isOpen = false;
        wakeWaiters();
        onCancel();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  const sink: LiveSink = {
    write(bytes) {
      if (!isOpen) return 0;
      controller.enqueue(bytes);
      queued = Math.max(0, -(controller.desiredSize ?? 0));
      return queued;
    },
    drained() {
      return !isOpen || queued === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
    },
    end(mode) {
      if (!isOpen) return;
      isOpen = false;
      wakeWaiters();
      // An error makes the server destroy the socket at once: a stalled client never drains a graceful end.
      if (mode === 'cut') controller.error(new Error('live client too slow'));
      else controller.close();
    },
  };
  return { body, sink };
}

/**
 * GET /api/events: the live stream (api.md "Live updates"). Messages are
 * `event: <topic kind>`, `data: {topics, position}`, `id: <position>`; `ready` marks
 * the moment the stream is live (after any replay), `reset` asks for a full refetch.
 */
export function createLiveRoutes(deps: ReadApiDeps, hub = new LiveHub(deps.pool, deps.changeFeed, deps.logger)) {
  const app = new Hono<AuthEnv>();
  // Logout, a password change, a deactivation: the user's streams end within the notice's round trip.
  const stopWatching = deps.tokens.onRevoked((userId) => hub.recheck(userId));

  // One read of the private and team projects per change of who sees what, however many streams ask.
  let round: { id: string; projects: ReturnType<typeof restrictedProjects> } | null = null;
  const rightsNow = (actor: Actor, roundId: string) => {
    if (round?.id !== roundId) round = { id: roundId, projects: restrictedProjects(deps.db) };
    return round.projects.then((projects) => projectRightsAmong(projects, actor));
  };

  app.get('/', requireAuth(deps.tokens), withProjectRights(deps), async (c) => {
    const actor = c.var.actor;
    const token = bearerToken(c.req.header('authorization')) ?? '';
    await hub.start();
    const release = hub.reserve(actor.id, deps.config.rateLimits.sseConnectionsPerUser);
    if (!release) {
      c.header('Retry-After', '30');
      return c.json({ message: 'Too many live connections for this user' }, 429);
    }
    const lastEventId = c.req.header('last-event-id')?.trim() || null;
    let subscription: Subscription | null = null;
    const { body, sink } = createSseBody(() => subscription?.close());
    subscription = hub.subscribe(actor, sink, {
      lastEventId,
      onClose: release,
      // The credential still works and still carries the rights the stream was opened with:
      // a role change or a lost (or new) project membership ends it, and the client reconnects with its new rights.
      isStillAuthorized: async (roundId) => {
        const current = await deps.tokens.verify(token).catch(() => null);
        if (!current || !hasSameRights(actor, current)) return false;
        // A heartbeat or a revocation notice asks about the credential and the role; the projects
        // only change with a project's change, which names its round.
        if (roundId === undefined) return true;
        const now = await rightsNow(current, roundId);
        return sameProjects(actor.hiddenProjects ?? [], now.hidden) && sameProjects(actor.teamProjects ?? [], now.team);
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'Transfer-Encoding': 'chunked',
      // Proxies (nginx) must not buffer the stream.
      'X-Accel-Buffering': 'no',
    });
  });

  const close = () => {
    stopWatching();
    hub.close();
  };
  return { app, hub, close };
}

/** Whether two lists of hidden projects name the same projects. */
export function sameProjects(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/**
 * Whether what a stream may hear is unchanged: its topic filters are functions of the
 * actor's id and role (and an API token's scope), so a stream opened with other rights must
 * be opened again. Re-asked on every revocation notice, which a role change, a deactivation
 * or a password change sends on every replica.
 */
export function hasSameRights(opened: Actor, current: Actor): boolean {
  return opened.id === current.id && opened.role === current.role && opened.apiToken?.scope === current.apiToken?.scope;
}
