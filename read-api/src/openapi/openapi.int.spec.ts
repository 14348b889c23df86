import { http, registerUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  let t: TestSystem;
  let doc: any;
  beforeAll(async () => {
    t = await startTestSystem();
    // Once a write has been projected the projector is following (a stop() that lands
    // before its subscription exists never returns: reported to the projector's owner).
    await registerUser(t.url, 'tester');
    const answer = await http(t.url).get('/api/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is an OpenAPI 3.1 document with components and bearer auth', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Bug', 'User', 'Error', 'Dashboard', 'StatusSummary', 'Chat', 'Message']),
    );
    expect(doc.paths['/api/bugs'].get.responses['200'].content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { bugs: { type: 'array', items: { $ref: '#/components/schemas/Bug' } } },
    });
    // Every $ref resolves.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents exactly the routes both servers answer: every route an operation, every operation a route', () => {
    const served = new Set(
      [...t.system.readApi!.routes, ...t.system.writeApi!.routes]
        .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
        .map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`),
    );
    expect(served.size).toBeGreaterThan(30);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m} ${path}`),
      ),
    );
    expect(
      [...served].filter((r) => !documented.has(r)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      'documented but not served',
    ).toEqual([]);
  });

  it('covers the spec section 7 calls', () => {
    const spec = [
      'post /api/auth/register',
      'post /api/auth/login',
      'get /api/auth/profile',
      'put /api/users/{id}',
      'get /api/users',
      'get /api/users/developers',
      'get /api/users/{id}',
      'get /api/bugs',
      'get /api/bugs/{id}',
      'get /api/bugs/user/{id}',
      'get /api/bugs/all-viewable',
      'get /api/bugs/assigned',
      'post /api/bugs',
      'put /api/bugs/{id}',
      'delete /api/bugs/{id}',
      'put /api/bugs/{id}/status',
      'put /api/bugs/{id}/checklist',
      'get /api/bugs/admin-dashboard',
      'get /api/bugs/tester-dashboard',
      'get /api/bugs/developer-dashboard',
      'get /api/bugs/{id}/history',
      'get /api/reports/export/bugs',
      'get /api/reports/export/users',
      'post /api/auth/upload-image',
      'get /chats',
      'get /chats/{id}',
      'post /chats',
      'get /chats/{id}/messages',
      'post /chats/{id}/messages',
      'get /users',
      'get /api/openapi.json',
    ];
    for (const call of spec) {
      const [method, path] = call.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], call).toBeDefined();
    }
    const names = (parameters: { name: string }[]) => parameters.map((p) => p.name);
    expect(names(doc.paths['/api/bugs'].get.parameters)).toEqual([
      'status',
      'q',
      'limit',
      'cursor',
      'sort',
      'priority',
      'severity',
      'assignee',
      'reporter',
      'module',
      'due',
      'project',
      'state',
      'label',
      'milestone',
      'parent',
      'archived',
      'sla',
      'triage',
      'X-Min-Position',
    ]);
    expect(doc.paths['/api/bugs/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
  });

  it('describes write bodies from the schemas write-api validates with, plus the rules it checks', () => {
    const body = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    const report = body('/api/bugs', 'post');
    expect(Object.keys(report.properties)).toEqual([
      'title',
      'description',
      'priority',
      'severity',
      'status',
      'module',
      'dueDate',
      'assignedTo',
      'checklist',
      'attachments',
      'fields',
      'estimate',
      'suggestions',
      'projectId',
    ]);
    expect(report.properties.title).toMatchObject({ description: 'Required; 5 to 100 characters' });
    expect(report.properties.priority).toMatchObject({ enum: ['Low', 'Medium', 'High'] });
    expect(Object.keys(body('/api/auth/register', 'post').properties)).toEqual(
      expect.arrayContaining(['name', 'email', 'password', 'role', 'adminInviteToken']),
    );
    // One declaration, two mounts.
    expect(body('/chats', 'post')).toEqual(body('/api/chats', 'post'));
    expect(doc.paths['/chats'].post.summary).toBe(doc.paths['/api/chats'].post.summary);
    expect(doc.paths['/api/users/{id}'].patch.requestBody).toEqual(doc.paths['/api/users/{id}'].put.requestBody);
    expect(doc.paths['/api/auth/upload-image'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});
