import { z } from 'zod';

/**
 * Builds the OpenAPI 3.1 document from operation descriptions whose request and answer
 * shapes are zod schemas (z.toJSONSchema): nothing here is hand-written JSON. Each
 * feature declares its operations beside its routes (`*.openapi.ts`), with the very
 * schemas its routes validate with; this module knows no feature and no server.
 */

export type ResponseSpec = {
  description: string;
  /** JSON answer shape; omit for an empty or non-JSON answer. */
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
  /** Other media types the same answer may take, as the request asks (a CSV beside a spreadsheet). */
  alsoContentTypes?: string[];
  headers?: Record<string, string>;
};

export type BodySpec = {
  /** The schema the route validates the body with (the same object, not a copy). */
  schema: z.ZodType;
  contentType?: string;
  required?: boolean;
  /**
   * What the validator alone cannot say about a field, by name: a string is added as
   * its description (the rules the domain checks, with their messages); a zod schema
   * documents the field's accepted values where the route reads it loosely and the
   * domain parses it (e.g. a status in any spelling). Every name must be a field of
   * `schema`, so the documented fields are always the validated ones.
   */
  fields?: Record<string, string | z.ZodType>;
};

export type RouteSpec = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, `{param}` style; relative to the router's mount until mountOperations. */
  path: string;
  summary: string;
  tags: string[];
  /** Defaults to the method and path's words (`getBugsIdHistory`); unique in a document. */
  operationId?: string;
  /** Bearer token required (default true). */
  auth?: boolean;
  /** Roles allowed, shown in the description. */
  roles?: string[];
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: BodySpec;
  responses: Record<number, ResponseSpec>;
};

export const errorSchema = z.object({
  message: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** Schemas published under components/schemas by name (ids), referenced where used. */
export const schemaNames = z.registry<{ id: string }>();
schemaNames.add(errorSchema, { id: 'Error' });

/**
 * What z.toJSONSchema reads about each schema: its `.describe()` text (kept in zod's
 * global registry) and its published name. Passing `schemaNames` alone would drop
 * every description.
 */
const metadata = {
  get(schema: z.core.$ZodType) {
    const described = z.globalRegistry.get(schema);
    const named = schemaNames.get(schema);
    return described || named ? { ...described, ...named } : undefined;
  },
} as unknown as z.core.$ZodRegistry<{ id?: string; description?: string }>;

/**
 * The operations of a router mounted at `base` (as `app.route(base, router)` does):
 * `/` becomes the base itself. A router mounted twice (the chat paths) is declared
 * once and mounted twice; `operationIdPrefix` keeps the second mount's ids unique.
 */
export function mountOperations(
  base: string,
  operations: readonly RouteSpec[],
  options: { operationIdPrefix?: string } = {},
): RouteSpec[] {
  const root = base.replace(/\/$/, '');
  return operations.map((operation) => {
    const path = operation.path === '/' ? root || '/' : `${root}${operation.path}`;
    return {
      ...operation,
      path,
      ...(options.operationIdPrefix && !operation.operationId
        ? { operationId: operationIdFor(operation.method, path, options.operationIdPrefix) }
        : {}),
    };
  });
}

/** `get /api/bugs/{id}/history` → `getBugsIdHistory` (the `/api` prefix is left out). */
export function operationIdFor(method: RouteSpec['method'], path: string, prefix = ''): string {
  const words = [prefix, ...path.replace(/^\/api\//, '/').split(/[/{}.-]+/)].filter(Boolean);
  return `${method}${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

type JsonSchema = Record<string, unknown>;

export function buildOpenApiDocument(routes: readonly RouteSpec[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      metadata,
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

  const requestBody = (route: RouteSpec, body: BodySpec) => {
    const schema = convert(body.schema, 'input');
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, doc] of Object.entries(body.fields ?? {})) {
      if (!(name in properties)) {
        throw new Error(`${route.method} ${route.path}: documented field "${name}" is not in the body schema`);
      }
      properties[name] = typeof doc === 'string' ? { ...properties[name], description: doc } : convert(doc, 'input');
    }
    return {
      required: body.required ?? true,
      content: { [body.contentType ?? 'application/json']: { schema } },
    };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const id = route.operationId ?? operationIdFor(route.method, route.path);
    if (operationIds.has(id)) throw new Error(`Duplicate operationId ${id} (${route.method} ${route.path})`);
    operationIds.add(id);
    if (paths[route.path]?.[route.method]) throw new Error(`${route.method} ${route.path} is declared twice`);

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
                ...Object.fromEntries(
                  (r.alsoContentTypes ?? []).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
                ),
              },
            }
          : {}),
      };
    }
    const auth = route.auth ?? true;
    if (auth) {
      responses['401'] ??= { description: 'Missing, bad, expired or revoked token', content: json(errorRef()) };
    }
    // What the door answers on every route, before any feature's code runs (api.md "Bad input
    // and limits"): so a generated client knows every status it can meet.
    const error = (description: string) => ({ description, content: json(errorRef()) });
    responses['400'] ??= error(
      'Invalid characters in request (a NUL or an unpaired surrogate in the path, query or body), or a malformed header',
    );
    if (route.body) {
      responses['413'] ??= error('Request body too large');
      responses['415'] ??= error('Unsupported media type');
    }
    if (route.method !== 'get') {
      responses['409'] ??= error(
        'Changed meanwhile by someone else (retry), or this Idempotency-Key is still in flight',
      );
      responses['422'] ??= error('Idempotency-Key was already used for a different request');
    }
    const operation = {
      operationId: id,
      summary: route.summary,
      ...(description ? { description } : {}),
      tags: route.tags,
      ...(auth ? { security: [{ bearerAuth: [] }] } : { security: [] }),
      parameters: [
        ...parameters('path', route.params),
        ...parameters('query', route.query),
        ...parameters('header', route.headers),
      ],
      ...(route.body ? { requestBody: requestBody(route, route.body) } : {}),
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

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errorRef = () => ({ $ref: '#/components/schemas/Error' });

function rewriteRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}
