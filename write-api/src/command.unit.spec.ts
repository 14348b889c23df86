import { idParam } from '@bugtrail/platform';
import { describe, expect, it } from 'vitest';
import { commandOperations } from './command.js';
import { idempotencyHeader } from './commands.openapi.js';
import { deleteView, saveView } from './views/views.commands.js';

describe('a command declaration documents itself', () => {
  it('derives the OpenAPI path, roles, parameters, Idempotency-Key and body from the declaration', () => {
    const [save, remove] = commandOperations([saveView, deleteView]);
    expect(save).toMatchObject({ method: 'post', path: '/', roles: ['admin', 'tester', 'developer'] });
    expect(save!.body?.schema).toBe(saveView.body!.schema);
    expect(save!.headers).toBe(idempotencyHeader);
    expect(Object.keys(save!.responses)).toEqual(['201', '400', '403', '409']);
    // Hono's `/:id` is OpenAPI's `/{id}`, with the declared parameter schema.
    expect(remove).toMatchObject({ method: 'delete', path: '/{id}' });
    expect(remove!.params).toBe(idParam);
    expect(remove!.body).toBeUndefined();
  });
});
