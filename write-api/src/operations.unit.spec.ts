import { describe, expect, it } from 'vitest';
import { writeApiOperations } from './operations.js';

describe('write-api operations', () => {
  it("documents the chat routes and commands at /api/chats and at the spec's /chats alike, each with its own ids", () => {
    const under = (base: string) =>
      writeApiOperations.filter((operation) => operation.path === base || operation.path.startsWith(`${base}/`));
    const api = under('/api/chats');
    const spec = under('/chats');
    expect(api.map((o) => `${o.method} ${o.path.slice('/api'.length)}`)).toEqual(
      spec.map((o) => `${o.method} ${o.path}`),
    );
    expect(api.map((o) => o.operationId)).toEqual(api.map(() => undefined));
    for (const operation of spec) expect(operation.operationId).toMatch(/^(post|put|delete)ChatServerChats/);
    // The declared commands are there too, not only the router's routes.
    expect(spec.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'post /chats',
        'put /chats/{id}',
        'post /chats/{id}/read',
        'delete /chats/{id}/messages/{messageId}',
      ]),
    );
  });
});
