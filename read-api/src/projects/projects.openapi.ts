import { projectDtoSchema } from '@bugtrail/domain';
import { notFoundAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';

/** GET /api/projects and /api/projects/{idOrKey} (projects.routes.ts), relative to their mount. */

schemaNames.add(projectDtoSchema, { id: 'Project' });

export const projectReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'The projects the caller may see, oldest first',
    description:
      'Public projects for everybody; a private one only for its members, admins and auditors (to anyone else it does not exist).',
    tags: ['projects'],
    responses: { 200: { description: 'The projects', schema: z.object({ projects: z.array(projectDtoSchema) }) } },
  },
  {
    method: 'get',
    path: '/{idOrKey}',
    summary: 'One project, by its id or any key it has had',
    tags: ['projects'],
    params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
    responses: {
      200: { description: 'The project', schema: projectDtoSchema },
      404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
    },
  },
];
