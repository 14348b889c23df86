import { Hono } from 'hono';
import { buildOpenApiDocument } from './document.js';
import { routes } from './routes.js';

/** GET /api/openapi.json: generated once, from the route registry's zod schemas. */
export function createOpenApiRoutes() {
  const app = new Hono();
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  app.get('/openapi.json', (c) => {
    document ??= buildOpenApiDocument(routes, { title: 'Bugtrail API', version: '1.0.0' });
    return c.json(document);
  });
  return app;
}
