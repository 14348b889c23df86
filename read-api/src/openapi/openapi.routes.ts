import { buildOpenApiDocument, type OpenApiDocument, type RouteSpec } from '@bugtrail/platform';
import { Hono } from 'hono';

/**
 * GET /api/openapi.json: generated once, from the operations each feature declares
 * beside its routes (read-api's own and those the launcher passes for write-api).
 */
export function createOpenApiRoutes(operations: readonly RouteSpec[]) {
  const app = new Hono();
  let document: OpenApiDocument | null = null;
  app.get('/openapi.json', (c) => {
    document ??= buildOpenApiDocument(operations, { title: 'Bugtrail API', version: '1.0.0' });
    return c.json(document);
  });
  return app;
}
