import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { http } from '../../../test-support/http.js';
import { startTestSystem, type TestSystem } from '../../../test-support/system.js';
import { registerUser } from '../../../test-support/users.js';
import { loginBody, registerBody } from '../../../write-api/src/auth/auth.routes.js';
import { bugPayload, checklistPayload, statusPayload } from '../../../write-api/src/bugs/bug-input.js';
import { bugPayloadDoc, checklistPayloadDoc, loginPayloadDoc, registerPayloadDoc, statusPayloadDoc } from './routes.js';

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
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Bug', 'User', 'Error', 'Dashboard']));
    expect(doc.paths['/api/bugs'].get.responses['200'].content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { bugs: { type: 'array', items: { $ref: '#/components/schemas/Bug' } } },
    });
    // Every $ref resolves.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
  });

  it('lists every route both servers answer, with its method', () => {
    const served = [...t.system.readApi!.routes, ...t.system.writeApi!.routes]
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`);
    expect(served.length).toBeGreaterThan(30);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m} ${path}`),
      ),
    );
    const missing = [...new Set(served)].filter((r) => !documented.has(r));
    expect(missing).toEqual([]);
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
    expect(doc.paths['/api/bugs'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'status',
      'q',
      'limit',
      'cursor',
    ]);
    expect(doc.paths['/api/bugs/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
  });

  it('describes write bodies with the same fields write-api reads', () => {
    const keys = (s: z.ZodObject) => Object.keys(s.shape).sort();
    expect(keys(bugPayloadDoc)).toEqual(keys(bugPayload));
    expect(keys(statusPayloadDoc)).toEqual(keys(statusPayload));
    expect(keys(checklistPayloadDoc)).toEqual(keys(checklistPayload));
    expect(keys(loginPayloadDoc)).toEqual(keys(loginBody));
    expect(keys(registerPayloadDoc)).toEqual(keys(registerBody));
  });
});
