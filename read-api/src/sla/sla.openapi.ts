import { slaMessages } from '@bugtrail/domain';
import { notFoundAnswer, type RouteSpec, slaPolicySchema } from '@bugtrail/platform';
import { z } from 'zod';

const tags = ['sla'];

/** GET /api/sla and under it (sla.routes.ts), relative to their mount. */
export const slaReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'The SLA policies, in the order they are tried: a project’s before every project’s, then the oldest',
    description:
      'A bug meets the first that holds for it (its `sla`). Policies of private projects the caller is no member of are left out.',
    tags,
    responses: { 200: { description: 'The policies', schema: z.object({ policies: z.array(slaPolicySchema) }) } },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One SLA policy',
    tags,
    params: z.object({ id: z.string().describe('The policy’s `_id`') }),
    responses: {
      200: { description: 'The policy', schema: slaPolicySchema },
      404: { ...notFoundAnswer, description: `"${slaMessages.notFound}"` },
    },
  },
];
