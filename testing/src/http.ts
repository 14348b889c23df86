export type HttpAnswer<T = any> = { status: number; body: T; headers: Headers };

/** A tiny JSON client for tests: real HTTP, no shortcuts. */
export function http(baseUrl: string) {
  const call = async <T = any>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string | undefined; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<HttpAnswer<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
  return {
    call,
    get: <T = any>(path: string, token?: string, headers?: Record<string, string>) =>
      call<T>('GET', path, { token, ...(headers ? { headers } : {}) }),
    post: <T = any>(path: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
      call<T>('POST', path, { body, token, ...(headers ? { headers } : {}) }),
    put: <T = any>(path: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
      call<T>('PUT', path, { body, token, ...(headers ? { headers } : {}) }),
    patch: <T = any>(path: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
      call<T>('PATCH', path, { body, token, ...(headers ? { headers } : {}) }),
    delete: <T = any>(path: string, token?: string) => call<T>('DELETE', path, { token }),
  };
}
