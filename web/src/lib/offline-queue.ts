import { ApiError, apiResponse, getToken } from './api';

/**
 * Commands made while the server cannot be reached wait here, in order, each with the
 * Idempotency-Key it was first sent with, until replayOfflineQueue sends them again.
 * The server answers a repeated key with the first answer, so a command that did reach
 * it before the connection broke still acts once.
 *
 * Kept in localStorage: it survives a reload or a closed tab, and logout or a 401 (which
 * clear the storage) drop it with the session it belongs to. api.ts loads this module on
 * its first network failure; the signed-in layout (use-offline-sync.ts) loads it at once.
 */
export const QUEUE_STORAGE_KEY = 'bugtrail:offline-queue';

export type QueuedCommand = Readonly<{
  /** The Idempotency-Key, which also names the entry. */
  id: string;
  method: string;
  path: string;
  /** The JSON body, as the caller gave it. */
  body?: unknown;
  /** The caller's headers (Idempotency-Key, If-Match); never the token, which is read at replay. */
  headers: Readonly<Record<string, string>>;
  /** What the user did, in words: named in the toast if the server refuses it later. */
  label: string;
  queuedAt: string;
}>;

export const offlineTexts = {
  saved: 'Saved offline — it will be sent when you are back online',
  offline: 'You are offline. Showing the last data seen; changes will be sent when you are back online.',
  unreachable: 'The server cannot be reached. Showing the last data seen; changes will be sent when it is back.',
} as const;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Which commands may wait: JSON commands on bugs and saved views, the work one does on
 * the move. Not auth (a login or an MFA code means nothing later), not file uploads, and
 * not chats (a message sent hours late is out of its conversation; the chat already keeps
 * an unsent message in its composer) or user administration.
 */
export function isQueueable(method: string, path: string, hasForm: boolean): boolean {
  if (hasForm || !WRITE_METHODS.has(method.toUpperCase())) return false;
  const pathname = path.split('?')[0] ?? path;
  return /^\/api\/(bugs|views)(\/|$)/.test(pathname);
}

const quoted = (value: unknown) => (typeof value === 'string' && value.trim() ? ` “${value.trim()}”` : '');

/** A label for a command the caller did not name. */
export function describeCommand(method: string, path: string, body: unknown): string {
  const verb = method.toUpperCase();
  const pathname = path.split('?')[0] ?? path;
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (pathname === '/api/bugs' && verb === 'POST') return `Report of the bug${quoted(fields.title)}`;
  if (/^\/api\/bugs\/[^/]+\/status$/.test(pathname)) return `Status change to ${String(fields.status ?? '')}`.trim();
  if (/^\/api\/bugs\/[^/]+\/checklist$/.test(pathname)) return 'Checklist change';
  if (/^\/api\/bugs\/[^/]+$/.test(pathname)) return verb === 'DELETE' ? 'Deletion of a bug' : 'Edit of a bug';
  if (pathname === '/api/views' && verb === 'POST') return `Saved view${quoted(fields.name)}`;
  if (pathname.startsWith('/api/views/') && verb === 'DELETE') return 'Deletion of a saved view';
  return `${verb} ${pathname}`;
}

function load(): QueuedCommand[] {
  try {
    const raw = localStorage.getItem(QUEUE_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter(
          (entry): entry is QueuedCommand =>
            typeof entry === 'object' &&
            entry !== null &&
            typeof entry.id === 'string' &&
            typeof entry.method === 'string' &&
            typeof entry.path === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

let entries: readonly QueuedCommand[] = load();
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/** Reads the storage again (another tab, or a logout, may have changed it). */
function refresh() {
  const next = load();
  const isSame = next.length === entries.length && next.every((entry, i) => entry.id === entries[i]?.id);
  if (isSame) return;
  entries = next;
  changed();
}

function store(next: QueuedCommand[]) {
  try {
    if (next.length === 0) localStorage.removeItem(QUEUE_STORAGE_KEY);
    else localStorage.setItem(QUEUE_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // storage full or unavailable: the queue lives on in memory for this tab
  }
  entries = next;
  changed();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === QUEUE_STORAGE_KEY || event.key === null) refresh();
  });
}

/** The waiting commands, oldest first. */
export function queuedCommands(): readonly QueuedCommand[] {
  refresh();
  return entries;
}

/**
 * Adds a command at the end. The same command twice in a row (a double click, a form
 * sent again) waits once: the second would only repeat the first.
 */
export function enqueueCommand(command: QueuedCommand): QueuedCommand {
  const current = load();
  const last = current.at(-1);
  if (
    last &&
    last.method === command.method &&
    last.path === command.path &&
    JSON.stringify(last.body) === JSON.stringify(command.body)
  ) {
    refresh();
    for (const listener of enqueueListeners) listener(last);
    return last;
  }
  store([...current, command]);
  for (const listener of enqueueListeners) listener(command);
  return command;
}

/** Takes a command off the queue (sent, or refused for good). */
export function removeQueued(id: string): void {
  store(load().filter((entry) => entry.id !== id));
}

/** Called on every change of the queue (this tab's, another tab's, a logout's). */
export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const queuedCount = () => entries.length;

const enqueueListeners = new Set<(command: QueuedCommand) => void>();

/** Called when a command joins the queue (the layout toasts it). */
export function onEnqueued(listener: (command: QueuedCommand) => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

/** The idempotency layer's answer while the first request with a key is still running (write-api idempotency.ts). */
const STILL_RUNNING = 'A request with this Idempotency-Key is still being processed';

/** A refusal that will not change on a retry: the command is dropped, not kept for later. */
function isFinalRefusal(error: unknown): error is ApiError {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return false;
  if ([401, 408, 429].includes(error.status)) return false;
  return !error.message.startsWith(STILL_RUNNING);
}

export type ReplayOutcome = {
  sent: QueuedCommand[];
  refused: { command: QueuedCommand; message: string }[];
};

async function replayInOrder(): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { sent: [], refused: [] };
  for (;;) {
    const next = queuedCommands()[0];
    if (!next || !getToken()) break;
    try {
      await apiResponse(next.path, {
        method: next.method,
        headers: { ...next.headers },
        offline: 'fail',
        ...(next.body === undefined ? {} : { body: next.body }),
      });
      removeQueued(next.id);
      outcome.sent.push(next);
    } catch (error) {
      // Still no server, a server error, or the session ended: keep it (and the order) for later.
      if (!isFinalRefusal(error)) break;
      removeQueued(next.id);
      outcome.refused.push({ command: next, message: error.message });
    }
  }
  return outcome;
}

let replaying: Promise<ReplayOutcome> | null = null;

/**
 * Sends the waiting commands, oldest first, each with its own Idempotency-Key. Stops at the
 * first that still cannot get through; a command the server refuses for good is dropped and
 * reported. One replay at a time, across tabs too (Web Locks), though a replayed key would
 * act once anyway.
 */
export function replayOfflineQueue(): Promise<ReplayOutcome> {
  replaying ??= (async () => {
    try {
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      return locks ? await locks.request('bugtrail-offline-queue', replayInOrder) : await replayInOrder();
    } finally {
      replaying = null;
    }
  })();
  return replaying;
}
