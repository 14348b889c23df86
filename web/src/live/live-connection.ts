import { createParser } from 'eventsource-parser';
import type { LiveStatus } from './live-status';

/** One message of `GET /api/events` (api.md "Live updates"). */
export type LiveEvent = Readonly<{
  /** A topic kind (`bug`, `bugs`, `user`, `users`, `chat`), or `ready` / `reset`. */
  event: string;
  topics: readonly string[];
  position: string;
  /** The message's data as sent (JSON); `ai-draft` events carry `{ chatId, messageId, content }`. */
  data?: unknown;
}>;

export type LiveConnectionOptions = {
  url?: string;
  /** Read at every (re)connect: the token travels in a header, never in the URL. */
  getToken: () => string | null;
  onEvent: (event: LiveEvent) => void;
  onStatus: (status: LiveStatus) => void;
  signal: AbortSignal;
  fetch?: typeof fetch;
  /** First retry delay and the cap; each failure doubles the delay, with jitter. */
  backoff?: { initialMs: number; maxMs: number };
  /** No byte for this long (the server beats every 15 s) means the connection is dead. */
  silenceMs?: number;
  /** How often to look for a changed token (log out, log in as someone else). */
  tokenCheckMs?: number;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Keeps one live stream open until `signal` aborts: reconnects with backoff and
 * Last-Event-ID (so the server replays what was missed), starts over when the token
 * changes, and waits quietly while there is no usable token.
 */
export async function runLiveConnection(options: LiveConnectionOptions): Promise<void> {
  const { signal, onStatus } = options;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = options.url ?? '/api/events';
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 1000, maxMs: 30_000 };
  const silenceMs = options.silenceMs ?? 45_000;
  const tokenCheckMs = options.tokenCheckMs ?? 2000;
  let lastEventId: string | null = null;
  let tokenInUse: string | null = null;
  let failures = 0;
  let hasBeenLive = false;

  while (!signal.aborted) {
    const token = options.getToken();
    if (!token) {
      onStatus('offline');
      await sleep(tokenCheckMs, signal);
      continue;
    }
    if (token !== tokenInUse) {
      // Another session sees other things: its position means nothing for this one.
      tokenInUse = token;
      lastEventId = null;
    }
    onStatus(hasBeenLive ? 'reconnecting' : 'connecting');
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    signal.addEventListener('abort', abortAttempt, { once: true });
    let silence: ReturnType<typeof setTimeout> | undefined;
    const restartSilenceTimer = () => {
      clearTimeout(silence);
      silence = setTimeout(abortAttempt, silenceMs);
    };
    const tokenWatch = setInterval(() => {
      if (options.getToken() !== tokenInUse) abortAttempt();
    }, tokenCheckMs);
    let retryAfterMs = 0;
    try {
      restartSilenceTimer();
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const response = await doFetch(url, { headers, signal: attempt.signal, cache: 'no-store' });
      if (response.status === 401 || response.status === 403) {
        // The session is over; the app's own 401 handling signs out. Try again only with a new token.
        onStatus('offline');
        while (!signal.aborted && options.getToken() === token) await sleep(tokenCheckMs, signal);
        continue;
      }
      if (!response.ok || !response.body) {
        const seconds = Number(response.headers.get('retry-after'));
        if (Number.isFinite(seconds) && seconds > 0) retryAfterMs = seconds * 1000;
        throw new Error(`live stream answered ${response.status}`);
      }
      const parser = createParser({
        onEvent: (message) => {
          if (message.id) lastEventId = message.id;
          let data: unknown;
          try {
            data = JSON.parse(message.data);
          } catch {
            return;
          }
          const fields: { topics?: unknown; position?: unknown } =
            typeof data === 'object' && data !== null ? data : {};
          const topics = Array.isArray(fields.topics) ? fields.topics.filter((t) => typeof t === 'string') : [];
          const event = message.event ?? 'message';
          if (event === 'ready') {
            failures = 0;
            hasBeenLive = true;
            onStatus('live');
          }
          options.onEvent({
            event,
            topics,
            position: typeof fields.position === 'string' ? fields.position : '',
            data,
          });
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        restartSilenceTimer();
        parser.feed(value);
      }
    } catch {
      // dropped, refused or timed out: retry below
    } finally {
      clearTimeout(silence);
      clearInterval(tokenWatch);
      signal.removeEventListener('abort', abortAttempt);
    }
    if (signal.aborted) break;
    onStatus('reconnecting');
    const delay = Math.min(maxMs, initialMs * 2 ** Math.min(failures, 10));
    failures += 1;
    // Jitter spreads a whole office's reconnects after a server restart.
    await sleep(Math.max(retryAfterMs, delay / 2 + Math.random() * (delay / 2)), signal);
  }
  onStatus('offline');
}
