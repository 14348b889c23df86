import http from 'node:http';

/**
 * Request bodies sent by hand over a socket of their own, for tests of what a server does
 * before, while and after it reads a body: a client that stops half-way and waits, one
 * that vanishes mid-body, one that never stops. The bytes are one shared buffer written
 * with backpressure, so a test holds no large body in memory.
 */
export type BodyAnswer = {
  /** The answer's status, or null when the connection ended without one. */
  status: number | null;
  headers: http.IncomingHttpHeaders;
  /** The answer's body as text ('' without an answer). */
  text: string;
  /** Body bytes the client handed to its socket before the answer (or the close). */
  sent: number;
};

/** An answer to a body sent in part: `closed` settles once the connection has ended. */
export type WaitedAnswer = BodyAnswer & { closed: Promise<void> };

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

type BodyRequest = Readonly<{
  path: string;
  method?: string;
  headers?: Record<string, string>;
  /** What the body starts with (multipart framing, a CSV header). */
  prefix?: string | Uint8Array;
}>;

function openRequest(baseUrl: string, request: BodyRequest): http.ClientRequest {
  const { hostname, port } = new URL(baseUrl);
  const req = http.request({
    hostname,
    port,
    path: request.path,
    method: request.method ?? 'POST',
    agent: false,
    headers: request.headers,
  });
  // The headers go out now, even before a byte of the body.
  req.flushHeaders();
  return req;
}

/** Writes `bytes` 'a's with backpressure, telling `onWrite` each chunk; resolves when all are written or it stopped. */
function writeBytes(
  req: http.ClientRequest,
  bytes: number,
  stopped: () => boolean,
  onWrite: (size: number) => void = () => {},
): Promise<void> {
  return new Promise((resolve) => {
    let written = 0;
    const pump = () => {
      while (!stopped() && written < bytes) {
        const size = Math.min(CHUNK.length, bytes - written);
        written += size;
        onWrite(size);
        if (!req.write(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size))) return void req.once('drain', pump);
      }
      resolve();
    };
    pump();
  });
}

/**
 * Sends the headers, the prefix and `bytes` of body, then sends nothing more (and does not end
 * the request) until the server answers or closes the connection. A server that waits for the
 * rest of a declared body never answers: the caller bounds the wait.
 */
export function sendThenWait(
  baseUrl: string,
  request: BodyRequest & { bytes: number /** Drops the connection (the answer is then null). */; signal?: AbortSignal },
): Promise<WaitedAnswer> {
  return new Promise((resolve) => {
    const req = openRequest(baseUrl, request);
    request.signal?.addEventListener('abort', () => req.destroy(), { once: true });
    let sent = 0;
    let settled = false;
    const closed = new Promise<void>((done) => req.once('close', () => done()));
    const finish = (answer: Omit<BodyAnswer, 'sent'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, sent, closed });
    };
    req.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => finish({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', () => finish({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    req.on('error', () => finish({ status: null, headers: {}, text: '' }));
    req.on('close', () => finish({ status: null, headers: {}, text: '' }));
    if (request.prefix) {
      req.write(request.prefix);
      sent += Buffer.byteLength(request.prefix);
    }
    void writeBytes(
      req,
      request.bytes,
      () => settled,
      (size) => {
        sent += size;
      },
    );
  });
}

/** Sends the headers, the prefix and `bytes` of body, then drops the connection without a word. */
export function abortMidBody(baseUrl: string, request: BodyRequest & { bytes: number }): Promise<void> {
  return new Promise((resolve) => {
    const req = openRequest(baseUrl, request);
    req.on('error', () => {});
    req.on('response', (response) => response.resume());
    let aborted = false;
    if (request.prefix) req.write(request.prefix);
    void writeBytes(req, request.bytes, () => aborted).then(() => {
      // Once the socket has handed the last byte on, vanish.
      req.write('', () => {
        aborted = true;
        req.destroy();
        resolve();
      });
    });
    req.on('close', () => {
      aborted = true;
      resolve();
    });
  });
}

/** Sends the prefix and then 'a's, chunked, up to `maxBytes`; stops at the first answer or close. */
export function sendEndlessly(baseUrl: string, request: BodyRequest & { maxBytes: number }): Promise<BodyAnswer> {
  return new Promise((resolve) => {
    const req = openRequest(baseUrl, {
      ...request,
      headers: { ...request.headers, 'transfer-encoding': 'chunked' },
    });
    let sent = 0;
    let settled = false;
    const finish = (answer: Omit<BodyAnswer, 'sent'>) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ ...answer, sent });
    };
    req.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      const done = () => finish({ status: response.statusCode ?? 0, headers: response.headers, text });
      response.on('end', done);
      response.on('error', done);
    });
    req.on('error', () => finish({ status: null, headers: {}, text: '' }));
    req.on('close', () => finish({ status: null, headers: {}, text: '' }));
    if (request.prefix) {
      req.write(request.prefix);
      sent += Buffer.byteLength(request.prefix);
    }
    void writeBytes(
      req,
      request.maxBytes,
      () => settled,
      (size) => {
        sent += size;
      },
    ).then(() => {
      if (!settled) req.end();
    });
  });
}
