import { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import type { Command, Decider, Event } from '../core/event.js';
import { type ProjectAccess, projectMessages } from './project-vocabulary.js';

/**
 * The default project (api.md "Projects"): where a bug reported without `projectId` goes (the
 * spec's clients), and where every bug from before projects belongs. The first start creates
 * "General", key BUG, under this fixed id; an admin may name another one, a fact in the one
 * stream `settings-default-project`.
 */
export const generalProject = {
  id: '00000000-0000-4000-8000-000000000001',
  key: 'BUG',
  name: 'General',
  description: 'Every bug reported without a project, and every bug from before projects.',
} as const;

export const defaultProjectEventSchemas = {
  DefaultProjectSet: { version: 1, data: z.object({ projectId: z.string().min(1).max(100) }) },
} as const;

export type DefaultProjectSet = Event<'DefaultProjectSet', { projectId: string }>;
export type DefaultProjectState = Readonly<{ projectId: string }>;
/** `projectExists`: write-api looked the project up as the caller sees it (else 404); `access`: its access now. */
export type SetDefaultProject = Command<
  'SetDefaultProject',
  { projectId: string; projectExists: boolean; access?: ProjectAccess }
>;

/** A body that names one project (`PUT /api/projects/default`, `PUT /api/bugs/{id}/project`). */
export const projectIdBody = z.object({
  projectId: z.string({ error: 'projectId is required' }).trim().min(1, 'projectId is required').max(100),
});

export const defaultProjectDecider: Decider<DefaultProjectState, SetDefaultProject, DefaultProjectSet> = {
  initialState: () => ({ projectId: generalProject.id }),
  evolve: (_state, event) => ({ projectId: event.data.projectId }),
  decide(command, state) {
    if (command.metadata.actor?.role !== 'admin')
      throw new ForbiddenError('Only admins can choose the default project');
    if (!command.data.projectExists) throw new NotFoundError(projectMessages.notFound);
    // The spec's clients report into the default project: it works by the reporters' rules.
    if (command.data.access === 'team') throw new ConflictError(projectMessages.defaultKeepsReporters);
    if (command.data.projectId === state.projectId) return [];
    return [{ type: 'DefaultProjectSet', data: { projectId: command.data.projectId } }];
  },
};
