/**
 * The one door to the main server: bearer token from local storage, a 30 s timeout,
 * JSON errors turned into ApiError, and a 401 on an authenticated call ends the session.
 * Every command carries an Idempotency-Key. Without the server (a network failure, not an
 * HTTP error), a GET answers the last answer seen (saved-answers.ts) and a command that may
 * wait joins the offline queue (offline-queue.ts), answered with a QueuedOffline result.
 * Both modules load on first use: the landing page, which shares this file, never needs them.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const TOKEN_KEY = 'token';

export type FieldDetail = { field: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  readonly details: FieldDetail[];
  /** True when the server answered with a message of its own (worth showing as is). */
  readonly hasServerMessage: boolean;
  constructor(status: number, message: string, details: FieldDetail[] = [], hasServerMessage = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.hasServerMessage = hasServerMessage;
  }
}

/** Status 0: no answer at all (network), -1: timed out. */
export const NO_RESPONSE = 0;
export const TIMED_OUT = -1;

export const errorTexts = {
  server: 'Server error. Please try again later.',
  timeout: 'Request timed out. Please try again later.',
  unexpected: 'An unexpected error occurred.',
} as const;

let onUnauthorized: () => void = () => {};
/** main.tsx wires this to "clear storage, clear caches, go to /login". */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token);
}

export type RequestOptions = {
  method?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Without the server, a command that may wait is queued ('queue', the default) or fails ('fail'). */
  offline?: 'queue' | 'fail';
  /** What the command does, in words, should it wait (named if the server later refuses it). */
  offlineLabel?: string;
};

/** What api() answers (status 202 for apiResponse) for a command that now waits in the offline queue. */
export type QueuedOffline = Readonly<{ queuedOffline: true; id: string; message: string }>;

export function isQueuedOffline(answer: unknown): answer is QueuedOffline {
  return typeof answer === 'object' && answer !== null && (answer as QueuedOffline).queuedOffline === true;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** A version 4 UUID; crypto.randomUUID exists only in secure contexts (HTTPS, localhost). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Whether the server answered the last request. No answer while the browser says it is
// online means the server (or the way to it) is down; the offline banner says so.
let isServerReachable = true;
const reachListeners = new Set<() => void>();

export function noteServerReachable(isReachable: boolean): void {
  if (isServerReachable === isReachable) return;
  isServerReachable = isReachable;
  for (const listener of reachListeners) listener();
}

export function subscribeServerReachable(listener: () => void): () => void {
  reachListeners.add(listener);
  return () => reachListeners.delete(listener);
}

export const getServerReachable = () => isServerReachable;

/** The answer when the server cannot be reached: a saved GET answer, a queued command, or null. */
async function answerWithoutServer(
  path: string,
  method: string,
  options: RequestOptions,
  idempotencyKey: string | undefined,
): Promise<Response | null> {
  if (method === 'GET') return (await import('./saved-answers')).readSavedAnswer(path);
  if (!idempotencyKey || options.offline === 'fail') return null;
  const { describeCommand, enqueueCommand, isQueueable, offlineTexts } = await import('./offline-queue');
  if (!isQueueable(method, path, options.form !== undefined)) return null;
  const command = enqueueCommand({
    id: idempotencyKey,
    method,
    path,
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { ...options.headers, [IDEMPOTENCY_HEADER]: idempotencyKey },
    label: options.offlineLabel ?? describeCommand(method, path, options.body),
    queuedAt: new Date().toISOString(),
  });
  const answer: QueuedOffline = { queuedOffline: true, id: command.id, message: offlineTexts.saved };
  return new Response(JSON.stringify(answer), { status: 202, headers: { 'content-type': 'application/json' } });
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = (options.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  // A command sent twice (a retry, a replay from the offline queue) acts once.
  let idempotencyKey = headerValue(headers, IDEMPOTENCY_HEADER);
  if (!SAFE_METHODS.has(method) && idempotencyKey === undefined) {
    idempotencyKey = newIdempotencyKey();
    headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  }
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body ?? null, signal });
  } catch (error) {
    if (timeout.aborted) {
      console.error(errorTexts.timeout);
      throw new ApiError(TIMED_OUT, errorTexts.timeout);
    }
    if (options.signal?.aborted) throw error;
    // No answer at all: offline, or the server (or the way to it) is down.
    noteServerReachable(false);
    const fallback = await answerWithoutServer(path, method, options, idempotencyKey);
    if (fallback) return fallback;
    console.error(errorTexts.unexpected);
    throw new ApiError(NO_RESPONSE, errorTexts.unexpected);
  }
  noteServerReachable(true);
  if (response.ok) {
    if (method === 'GET' && (response.headers.get('content-type') ?? '').includes('json')) {
      // Cloned now, before the caller reads the body; kept once the module is there.
      const copy = response.clone();
      void import('./saved-answers').then(({ saveAnswer }) => saveAnswer(path, copy));
    }
    return response;
  }

  let payload: { message?: unknown; details?: unknown } | null = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  // A 401 for a token already replaced (a password or role change answered a new one) ends nothing.
  if (response.status === 401 && token && token === getToken()) onUnauthorized();
  if (response.status >= 500) console.error(errorTexts.server);
  const serverMessage = typeof payload?.message === 'string' ? payload.message : '';
  const details = Array.isArray(payload?.details)
    ? (payload.details as unknown[]).filter(
        (d): d is FieldDetail => typeof d === 'object' && d !== null && typeof (d as FieldDetail).message === 'string',
      )
    : [];
  throw new ApiError(response.status, serverMessage || `Server error: ${response.status}`, details, !!serverMessage);
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The raw answer, for callers that need the status or a binary body. */
export function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  return send(path, options);
}

/** Downloads a binary answer under the given file name. */
export async function downloadFile(path: string, fileName: string) {
  const response = await send(path, { headers: { accept: '*/*' } });
  saveBlob(await response.blob(), fileName);
}

/** Hands a blob to the browser as a download under the given file name. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The server's message when it gave one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.hasServerMessage ? error.message : fallback;
}
