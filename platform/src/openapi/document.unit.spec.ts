import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bugDtoSchema } from './answers.js';
import { buildOpenApiDocument, mountOperations, type RouteSpec } from './document.js';

const info = { title: 'Test', version: '0' };
const body = z.object({ title: z.string().nullable().optional(), status: z.unknown().optional() });
const router: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'List',
    tags: ['t'],
    responses: { 200: { description: 'ok', schema: z.array(bugDtoSchema) } },
  },
  {
    method: 'put',
    path: '/{id}',
    summary: 'Edit',
    tags: ['t'],
    params: z.object({ id: z.string().describe('The id') }),
    body: { schema: body, fields: { title: 'Required', status: z.enum(['Open', 'Closed']).describe('Any case') } },
    responses: { 200: { description: 'ok' } },
  },
];

describe('mountOperations', () => {
  it('puts a router under its mount, `/` becoming the base itself', () => {
    expect(mountOperations('/api/things', router).map((r) => r.path)).toEqual(['/api/things', '/api/things/{id}']);
    expect(mountOperations('/', [{ ...router[0]!, path: '/health' }]).map((r) => r.path)).toEqual(['/health']);
  });

  it('declares once, mounts twice, with unique operation ids', () => {
    const doc = buildOpenApiDocument(
      [
        ...mountOperations('/api/things', router),
        ...mountOperations('/things', router, { operationIdPrefix: 'alias' }),
      ],
      info,
    );
    expect(doc.paths['/api/things']!.get).toMatchObject({ operationId: 'getThings', summary: 'List' });
    expect(doc.paths['/things']!.get).toMatchObject({ operationId: 'getAliasThings', summary: 'List' });
  });
});

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument(mountOperations('/api/things', router), info) as any;

  it('keeps descriptions and publishes named schemas as components', () => {
    expect(doc.paths['/api/things/{id}'].put.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      description: 'The id',
    });
    expect(doc.paths['/api/things'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Bug' },
    });
    expect(doc.components.schemas.Bug.properties.version.description).toMatch(/If-Match/);
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.paths['/api/things'].get.responses['401']).toBeDefined();
  });

  it('documents the validated body, with what the validator cannot say per field', () => {
    const schema = doc.paths['/api/things/{id}'].put.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['title', 'status']);
    expect(schema.properties.title).toMatchObject({ description: 'Required' });
    expect(schema.properties.status).toMatchObject({ enum: ['Open', 'Closed'], description: 'Any case' });
  });

  it('refuses a field note for a field the body does not have, and duplicate operations', () => {
    const stray: RouteSpec = { ...router[1]!, body: { schema: body, fields: { nope: 'x' } } };
    expect(() => buildOpenApiDocument([stray], info)).toThrow(/"nope" is not in the body schema/);
    expect(() => buildOpenApiDocument([router[0]!, router[0]!], info)).toThrow(/Duplicate operationId/);
  });
});
