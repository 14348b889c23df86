export type LiveMessage = Readonly<{
  event: string;
  id: string | undefined;
  topics: string[];
  position: string;
  /** The message's data as sent (an `ai-draft`'s `{ chatId, messageId, content }`). */
  data: Record<string, unknown>;
}>;

/**
 * Parses the event-stream format (WHATWG HTML, "Interpreting an event stream"):
 * fields per line, a blank line dispatches, comments and id-less messages kept apart.
 * Written out here because eventsource-parser's "source" export condition clashes
 * with the workspace's own under the root tsconfig.
 */
export function createSseParser(
  onEvent: (message: { id?: string; event?: string; data: string }) => void,
  onRetry: (ms: number) => void = () => {},
) {
  let pending = '';
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  return (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r\n|\r|\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0)
          onEvent({ ...(id === undefined ? {} : { id }), ...(event ? { event } : {}), data: data.join('\n') });
        data = [];
        event = undefined;
        id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
    }
  };
}

/** A real SSE client for tests: fetch with the bearer header, as the web client reads the stream. */
export class SseReader {
  readonly messages: LiveMessage[] = [];
  lastEventId: string | null;
  /** The reconnection time the server last asked for (`retry:`), if it did. */
  retryMs: number | null = null;
  isEnded = false;
  private readonly controller = new AbortController();
  private wake: (() => void) | null = null;

  private constructor(lastEventId: string | null) {
    this.lastEventId = lastEventId;
  }

  /** Opens the stream and waits for `ready`, the moment it is live. */
  static async open(baseUrl: string, token: string, lastEventId: string | null = null): Promise<SseReader> {
    const reader = new SseReader(lastEventId);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const response = await fetch(`${baseUrl}/api/events`, { headers, signal: reader.controller.signal });
    if (response.status !== 200 || !response.body) {
      throw new Error(`events answered ${response.status}: ${await response.text()}`);
    }
    void reader.pump(response.body);
    await reader.waitFor((m) => m.event === 'ready');
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const feed = createSseParser(
      (message) => {
        const data = JSON.parse(message.data) as { topics: string[]; position: string };
        if (message.id) this.lastEventId = message.id;
        this.messages.push({ event: message.event ?? 'message', id: message.id, ...data, data });
        this.wake?.();
      },
      (ms) => {
        this.retryMs = ms;
      },
    );
    const decoder = new TextDecoder();
    const stream = body.getReader();
    try {
      for (let read = await stream.read(); !read.done; read = await stream.read()) {
        feed(decoder.decode(read.value, { stream: true }));
      }
    } catch {
      // aborted by close(), or the server cut us
    }
    this.isEnded = true;
    this.wake?.();
  }

  /** Resolves with the first message (from `fromIndex`) that matches; rejects after the timeout. */
  async waitFor(match: (m: LiveMessage) => boolean, timeoutMs = 20_000, fromIndex = 0): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(fromIndex).find(match);
      if (found) return found;
      if (this.isEnded) throw new Error('stream ended before the expected message');
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Waits until the server ends or cuts the stream. */
  async waitForEnd(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.isEnded) {
      if (Date.now() > deadline) throw new Error('stream still open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Every topic received, in order, across messages (ready/reset excluded). */
  topics(): string[] {
    return this.messages.flatMap((m) => m.topics);
  }

  close(): void {
    this.controller.abort();
  }
}
