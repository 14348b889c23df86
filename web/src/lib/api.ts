/**
 * The one door to the main server: bearer token from local storage, a 30 s timeout,
 * JSON errors turned into ApiError, and a 401 on an authenticated call ends the session.
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
};

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
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
    response = await fetch(path, { method: options.method ?? 'GET', headers, body: body ?? null, signal });
  } catch (error) {
    if (timeout.aborted) {
      console.error(errorTexts.timeout);
      throw new ApiError(TIMED_OUT, errorTexts.timeout);
    }
    if (options.signal?.aborted) throw error;
    console.error(errorTexts.unexpected);
    throw new ApiError(NO_RESPONSE, errorTexts.unexpected);
  }
  if (response.ok) return response;

  let payload: { message?: unknown; details?: unknown } | null = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  if (response.status === 401 && token) onUnauthorized();
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
