import type { RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** GET /openapi.json (openapi.routes.ts), relative to its mount at /api. */

export const openApiOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.object({}).loose() } },
  },
];
