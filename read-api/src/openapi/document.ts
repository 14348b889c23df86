import { z } from 'zod';

/**
 * Builds the OpenAPI 3.1 document from route descriptions whose request and answer
 * shapes are zod schemas (z.toJSONSchema): nothing here is hand-written JSON.
 */

export type ResponseSpec = {
  description: string;
  /** JSON answer shape; omit for an empty or non-JSON answer. */
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
  headers?: Record<string, string>;
};

export type RouteSpec = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, `{param}` style. */
  path: string;
  summary: string;
  tags: string[];
  /** Bearer token required (default true). */
  auth?: boolean;
  /** Roles allowed, shown in the description. */
  roles?: string[];
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { schema: z.ZodType; contentType?: string; required?: boolean };
  responses: Record<number, ResponseSpec>;
};

export const errorSchema = z.object({
  message: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** Schemas published under components/schemas by name (ids), referenced where used. */
export const schemaNames = z.registry<{ id: string }>();

type JsonSchema = Record<string, unknown>;

export function buildOpenApiDocument(routes: readonly RouteSpec[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      metadata: schemaNames,
      io,
      unrepresentable: 'any',
      reused: 'inline',
    }) as JsonSchema;
    const { $schema: _s, $defs, ...rest } = json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const { id: _id, ...clean } = def;
      components[name] ??= rewriteRefs(clean);
    }
    const { id: _id, ...clean } = rest;
    return rewriteRefs(clean);
  };

  const parameters = (where: 'path' | 'query' | 'header', object: z.ZodObject | undefined) =>
    Object.entries(object?.shape ?? {}).map(([name, field]) => {
      const schema = convert(field as z.ZodType, 'input');
      const { description, ...rest } = schema;
      return {
        name,
        in: where,
        required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema: rest,
      };
    });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const roles = route.roles?.length ? `Roles: ${route.roles.join(', ')}.` : '';
    const description = [route.description, roles].filter(Boolean).join('\n\n');
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
              ),
            }
          : {}),
        ...(r.schema || r.contentType
          ? {
              content: {
                [r.contentType ?? 'application/json']: r.schema
                  ? { schema: convert(r.schema, 'output') }
                  : { schema: { type: 'string', format: 'binary' } },
              },
            }
          : {}),
      };
    }
    const auth = route.auth ?? true;
    if (auth) {
      responses['401'] ??= { description: 'Missing, bad, expired or revoked token', content: json(errorRef()) };
    }
    const operation = {
      operationId: operationId(route),
      summary: route.summary,
      ...(description ? { description } : {}),
      tags: route.tags,
      ...(auth ? { security: [{ bearerAuth: [] }] } : { security: [] }),
      parameters: [
        ...parameters('path', route.params),
        ...parameters('query', route.query),
        ...parameters('header', route.headers),
      ],
      ...(route.body
        ? {
            requestBody: {
              required: route.body.required ?? true,
              content: {
                [route.body.contentType ?? 'application/json']: { schema: convert(route.body.schema, 'input') },
              },
            },
          }
        : {}),
      responses,
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  components.Error ??= convert(errorSchema, 'output');
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
    },
    paths,
  };
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errorRef = () => ({ $ref: '#/components/schemas/Error' });

function rewriteRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}

function operationId(route: RouteSpec): string {
  const words = route.path
    .replace(/^\/api\//, '/')
    .split(/[/{}-]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)));
  return `${route.method}${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}
