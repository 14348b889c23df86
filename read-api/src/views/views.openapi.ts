import { savedViewDtoSchema } from '@bugtrail/domain';
import { type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';

/** GET /api/views (views.routes.ts), relative to its mount at /api/views. */

schemaNames.add(savedViewDtoSchema, { id: 'SavedView' });

export const viewReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'The caller’s saved views, in the order they were saved (newest last)',
    description: 'Personal: every user, auditors included, lists their own views and nobody else’s.',
    tags: ['views'],
    responses: { 200: { description: 'Bare array', schema: z.array(savedViewDtoSchema) } },
  },
];
