import { describe, expect, it } from 'vitest';
import type { FuzzRequest } from './arbitraries.js';
import { lengthsFromDescription } from './arbitraries.js';
import type { RawAnswer } from './client.js';
import { buildOpenApiModel, parseRoles } from './openapi-model.js';
import { checkSchema, parseAnswer, SchemaChecker } from './oracles.js';

/** A document as the builder writes one: a referenced component, a roles line, an error answer. */
const document = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Error: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          details: { type: 'array', items: { type: 'object' } },
        },
        required: ['message'],
        additionalProperties: false,
      },
      Thing: {
        type: 'object',
        properties: { _id: { type: 'string' }, count: { type: 'integer' } },
        required: ['_id', 'count'],
        additionalProperties: false,
      },
    },
  },
  paths: {
    '/api/things/{id}': {
      get: {
        operationId: 'getThingsId',
        description: 'Roles: admin, developer (assigned), tester (own, text only).',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          404: {
            description: 'no',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
  },
};

const model = buildOpenApiModel(document);
const schemas = new SchemaChecker(model);
const op = model.operations[0]!;

const request: FuzzRequest = {
  operation: op,
  caller: 'admin',
  mode: 'valid',
  pathParams: { id: 'x' },
  query: [],
  headers: {},
  body: null,
  holdStreamMs: 0,
};

const answer = (status: number, body: unknown, type = 'application/json'): RawAnswer => ({
  status,
  headers: { 'content-type': type },
  text: typeof body === 'string' ? body : JSON.stringify(body),
  bytes: 0,
  durationMs: 1,
});

const check = (a: RawAnswer) => checkSchema(request, parseAnswer(a), schemas);

describe('reading the document', () => {
  it('reads the roles line with its qualifiers', () => {
    expect(parseRoles(op.description)).toEqual([
      { role: 'admin', qualifiers: [] },
      { role: 'developer', qualifiers: ['assigned'] },
      { role: 'tester', qualifiers: ['own', 'text only'] },
    ]);
    expect(parseRoles('No roles here')).toBeNull();
  });

  it('reads lengths from a field description', () => {
    expect(lengthsFromDescription('Required; 5 to 100 characters')).toEqual({ min: 5, max: 100 });
    expect(lengthsFromDescription('Required; at least 10 characters')).toEqual({ min: 10 });
    expect(lengthsFromDescription('At most 2,048 characters')).toEqual({ max: 2048 });
  });
});

describe('the schema oracle', () => {
  it('accepts an answer in its documented schema', () => {
    expect(check(answer(200, { _id: 'a', count: 1 }))).toEqual([]);
    expect(check(answer(404, { message: 'Not found' }))).toEqual([]);
  });

  it('names the first break of a documented schema, through $refs', () => {
    const [extra] = check(answer(200, { _id: 'a', count: 1, secret: 'x' }));
    expect(extra).toMatchObject({ kind: 'schema', detail: '/ must NOT have additional properties "secret"' });
    const [wrongType] = check(answer(200, { _id: 'a', count: 'one' }));
    expect(wrongType?.detail).toBe('/count must be integer');
  });

  it('flags a body that is not JSON where JSON is documented', () => {
    expect(check(answer(404, '<html>nope</html>', 'text/html'))[0]?.detail).toMatch(/not JSON/);
  });

  it('flags an undocumented status, and still wants a JSON error body', () => {
    const findings = check(answer(400, { message: 'Invalid characters in request' }));
    expect(findings.map((f) => f.kind)).toEqual(['undocumented-status']);
    expect(check(answer(415, 'Unsupported', 'text/plain')).map((f) => f.kind)).toEqual([
      'undocumented-status',
      'schema',
    ]);
  });

  it('flags an undocumented 5xx as a server error', () => {
    expect(check(answer(500, { message: 'Server error' })).map((f) => f.kind)).toEqual(['server-error']);
  });
});
