import { labelDtoSchema } from '@bugtrail/domain';
import { type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';

schemaNames.add(labelDtoSchema, { id: 'Label' });

/** GET /api/labels (labels.routes.ts), relative to its mount. */
export const labelReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Every label, by name (admins manage them; bugs carry them)',
    tags: ['labels'],
    responses: { 200: { description: 'The labels', schema: z.object({ labels: z.array(labelDtoSchema) }) } },
  },
];
