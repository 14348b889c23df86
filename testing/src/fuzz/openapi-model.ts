/**
 * The fuzzer's view of the served OpenAPI document (GET /api/openapi.json): every
 * operation with its parameters, body, documented answers and the roles its
 * description names. Nothing here lists operations by hand: a new route shows up in
 * the fuzz run as soon as it is in the document.
 */

export type JsonSchema = Record<string, unknown>;

/** `Roles: admin, tester (own).` → one rule per role, with its qualifier words (`own`, `assigned`, ...). */
export type RoleRule = { role: string; qualifiers: string[] };

export type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
};

export type RequestBody = {
  contentType: string;
  required: boolean;
  schema: JsonSchema;
};

export type DocumentedAnswer = {
  status: number;
  /** The documented media type, or null for an answer without a body. */
  contentType: string | null;
  /** Every media type documented for it (the first is `contentType`). */
  contentTypes: string[];
  /** JSON pointer (into the document) of the answer's JSON schema, when it has one. */
  schemaPointer: string | null;
};

export type Operation = {
  id: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  description: string;
  /** A bearer token is required. */
  auth: boolean;
  /** null: every signed-in role may call it (the table in api.md may still narrow it per object). */
  roles: RoleRule[] | null;
  parameters: Parameter[];
  body: RequestBody | null;
  /** The description says the route also reads multipart/form-data: the form's file field, if named. */
  multipartFileField: string | null;
  answers: Map<number, DocumentedAnswer>;
};

export type OpenApiModel = {
  document: JsonSchema;
  operations: Operation[];
  /** Resolves a `$ref` (local to the document) to its schema. */
  resolve(schema: JsonSchema): JsonSchema;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Escapes one JSON-pointer token. */
export const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

export async function fetchOpenApiModel(baseUrl: string): Promise<OpenApiModel> {
  const response = await fetch(`${baseUrl}/api/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /api/openapi.json answered ${response.status}`);
  return buildOpenApiModel((await response.json()) as JsonSchema);
}

export function buildOpenApiModel(document: JsonSchema): OpenApiModel {
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
      current = pointerGet(document, (current.$ref as string).replace(/^#/, '')) as JsonSchema;
    }
    return current;
  };

  const operations: Operation[] = [];
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const base = `/paths/${pointerToken(path)}/${method}`;
      const description = String(op.description ?? '');
      const security = op.security as unknown[] | undefined;
      const parameters = ((op.parameters ?? []) as JsonSchema[]).map((p) => ({
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: Boolean(p.required),
        description: String(p.description ?? ''),
        schema: (p.schema ?? {}) as JsonSchema,
      }));
      let body: RequestBody | null = null;
      const requestBody = op.requestBody as JsonSchema | undefined;
      if (requestBody) {
        const [contentType, media] = Object.entries((requestBody.content ?? {}) as Record<string, JsonSchema>)[0] ?? [];
        if (contentType && media) {
          body = {
            contentType,
            required: Boolean(requestBody.required),
            schema: (media.schema ?? {}) as JsonSchema,
          };
        }
      }
      const answers = new Map<number, DocumentedAnswer>();
      for (const [status, answer] of Object.entries((op.responses ?? {}) as Record<string, JsonSchema>)) {
        const content = Object.entries((answer.content ?? {}) as Record<string, JsonSchema>)[0];
        // application/json and +json types; not NDJSON (a stream of JSON lines, no one schema).
        const isJson = content ? /^application\/(json|[\w.-]+\+json)\b/i.test(content[0]) : false;
        answers.set(Number(status), {
          status: Number(status),
          contentType: content?.[0] ?? null,
          contentTypes: Object.keys((answer.content ?? {}) as Record<string, unknown>),
          schemaPointer:
            content && isJson && content[1].schema
              ? `${base}/responses/${status}/content/${pointerToken(content[0])}/schema`
              : null,
        });
      }
      const multipart = /multipart\/form-data/i.test(description) && body?.contentType !== 'multipart/form-data';
      operations.push({
        id: String(op.operationId ?? `${method} ${path}`),
        method,
        path,
        summary: String(op.summary ?? ''),
        description,
        auth: !(Array.isArray(security) && security.length === 0),
        roles: parseRoles(description),
        parameters,
        body,
        multipartFileField: multipart ? (/`(\w+)` files/.exec(description)?.[1] ?? 'file') : null,
        answers,
      });
    }
  }
  return { document, operations, resolve };
}

/** `Roles: admin, developer (assigned), tester (own, text only).` as the document builder writes it. */
export function parseRoles(description: string): RoleRule[] | null {
  const line = /Roles: (.+?)\.?$/m.exec(description)?.[1];
  if (!line) return null;
  const rules: RoleRule[] = [];
  for (const m of line.matchAll(/([a-z_]+)(?:\s*\(([^)]*)\))?/gi)) {
    rules.push({
      role: m[1]!.toLowerCase(),
      qualifiers: (m[2] ?? '')
        .split(',')
        .map((q) => q.trim().toLowerCase())
        .filter(Boolean),
    });
  }
  return rules;
}

export function pointerGet(document: unknown, pointer: string): unknown {
  let current = document;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** `/api/chats/{id}/messages/{messageId}` → the word before each `{param}` (`chats`, `messages`). */
export function resourceOf(path: string, param: string): string {
  const segments = path.split('/');
  const at = segments.indexOf(`{${param}}`);
  return at > 0 ? segments[at - 1]! : '';
}
