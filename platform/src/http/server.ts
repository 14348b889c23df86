import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

export type RunningServer = { url: string; port: number; close(): Promise<void> };

/** Serves a Hono app; close() stops accepting, drains open requests, then resolves. */
export function listen(
  app: { fetch: (request: Request, env?: any) => Response | Promise<Response> },
  port: number,
  host = '0.0.0.0',
): Promise<RunningServer> {
  let closing = false;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            const s = server as Server;
            closing = true;
            s.close(() => done());
            s.closeIdleConnections?.();
            // Long-lived streams (SSE) are ended by their owners; don't wait forever.
            setTimeout(() => {
              s.closeAllConnections?.();
              done();
            }, 5000).unref();
          }),
      });
    }) as Server;
    server.keepAliveTimeout = 65_000;
    // Once closing, a request that still arrives on an open connection is answered, and
    // that connection then ends: the client's next request goes to another replica.
    server.on('request', (_request, response) => {
      if (closing && !response.headersSent) response.setHeader('Connection', 'close');
    });
    server.on('error', reject);
  });
}
