import {
  defaultProjectDecider,
  type ProjectFacts,
  type ProjectState,
  projectDecider,
  seesProject,
  streams,
} from '@bugtrail/domain';
import type { WriteApiDeps } from '../deps.js';
import { projectOfKey } from './project-keys.js';

/**
 * Projects as the write side reads them: from their streams (folded by the projects'
 * decider), so a decision never waits for a read model.
 */

/** The project's stream folded (`exists: false` when there is none). */
export async function loadProject(deps: Pick<WriteApiDeps, 'commands'>, projectId: string): Promise<ProjectState> {
  return (await deps.commands.load(streams.project(projectId), projectDecider)).state;
}

/** The project an id or any key it has had names (not checked against anyone: see `seesProject`). */
export async function projectNamed(deps: WriteApiDeps, idOrKey: string): Promise<ProjectState> {
  return loadProject(deps, (await projectOfKey(deps.pool, idOrKey)) ?? idOrKey);
}

/** The project `idOrKey` names, as `actor` may see it; else null. */
export async function visibleProject(
  deps: WriteApiDeps,
  idOrKey: string,
  actor: Parameters<typeof seesProject>[0],
): Promise<ProjectState | null> {
  const state = await projectNamed(deps, idOrKey);
  return state.exists && seesProject(actor, state) ? state : null;
}

/** The default project's id as its stream says now. */
export async function defaultProjectId(deps: Pick<WriteApiDeps, 'commands'>): Promise<string> {
  return (await deps.commands.load(streams.defaultProject(), defaultProjectDecider)).state.projectId;
}

/** What a bug's decision needs of its project. */
export const factsOf = (state: ProjectState): ProjectFacts => ({
  exists: state.exists,
  id: state.id,
  private: state.private,
  archived: state.archived,
  members: state.members,
  access: state.access,
});
