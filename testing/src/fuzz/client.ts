/**
 * The fuzzer's HTTP client: node:http with the request target sent byte for byte (fetch
 * would normalise `..` and `%2e%2e` away before the server could see them), keep-alive,
 * a timeout, and server-sent event streams read only as far as their headers.
 */
import http from 'node:http';
import https from 'node:https';

export type RawRequest = {
  method: string;
  /** Path and query, already encoded: sent as is. */
  target: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
};

export type RawAnswer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as text (for JSON, text and error answers); null for a binary or streamed one. */
  text: string | null;
  bytes: number;
  durationMs: number;
};

export type HttpClient = {
  send(request: RawRequest, options?: { holdStreamMs?: number }): Promise<RawAnswer>;
  close(): void;
};

/** Bodies larger than this are counted, not kept. */
const KEEP_LIMIT = 32 * 1024 * 1024;

export class TransportError extends Error {}

export function createHttpClient(baseUrl: string, options: { timeoutMs?: number; maxSockets?: number } = {}) {
  const base = new URL(baseUrl);
  const isHttps = base.protocol === 'https:';
  const agent = isHttps
    ? new https.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 })
    : new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const prefix = base.pathname.replace(/\/$/, '');

  const send = (request: RawRequest, sendOptions: { holdStreamMs?: number } = {}) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const started = performance.now();
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers: Record<string, string | number> = { ...request.headers };
      if (body) headers['content-length'] = body.byteLength;
      let settled = false;
      const finish = (answer: RawAnswer | Error) => {
        if (settled) return;
        settled = true;
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      const req = (isHttps ? https : http).request(
        {
          agent,
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          method: request.method,
          path: prefix + request.target,
          headers,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const type = String(res.headers['content-type'] ?? '');
          if (type.startsWith('text/event-stream')) {
            // A live stream never ends by itself: hold it briefly (so connections overlap), then hang up.
            setTimeout(() => {
              res.destroy();
              finish({ status, headers: res.headers, text: null, bytes: 0, durationMs: performance.now() - started });
            }, sendOptions.holdStreamMs ?? 0);
            res.on('error', () => {});
            return;
          }
          const isText = !/spreadsheet|octet-stream|image\//i.test(type);
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.byteLength;
            if (isText && bytes <= KEEP_LIMIT) chunks.push(chunk);
          });
          res.on('end', () =>
            finish({
              status,
              headers: res.headers,
              text: isText ? Buffer.concat(chunks).toString('utf8') : null,
              bytes,
              durationMs: performance.now() - started,
            }),
          );
          res.on('error', (error) => finish(new TransportError(`answer broke off: ${error.message}`)));
        },
      );
      req.setTimeout(timeoutMs, () => {
        req.destroy(new TransportError(`no answer within ${timeoutMs} ms`));
      });
      req.on('error', (error) =>
        finish(error instanceof TransportError ? error : new TransportError(`request failed: ${error.message}`)),
      );
      req.end(body);
    });

  return { send, close: () => agent.destroy() } satisfies HttpClient;
}

/** A JSON call for seeding the world (not fuzzed): throws unless the status is `expect`. */
export async function callJson<T = any>(
  client: HttpClient,
  method: string,
  target: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<{ status: number; body: T; headers: http.IncomingHttpHeaders }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const answer = await client.send({ method, target, headers, ...(body === undefined ? {} : { body }) });
  let parsed: unknown = answer.text;
  try {
    parsed = answer.text ? JSON.parse(answer.text) : null;
  } catch {
    // not JSON: keep the text
  }
  if (options.expect !== undefined && answer.status !== options.expect) {
    throw new Error(`${method} ${target} answered ${answer.status}, expected ${options.expect}: ${answer.text}`);
  }
  return { status: answer.status, body: parsed as T, headers: answer.headers };
}
