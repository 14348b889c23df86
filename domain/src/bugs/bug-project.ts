import { z } from 'zod';
import { ConflictError, NotFoundError } from '../core/errors.js';
import type { Actor, Command } from '../core/event.js';
import { generalProject } from '../projects/default-project.js';
import { type ProjectState, seesProject } from '../projects/project.js';
import { projectMessages } from '../projects/project-vocabulary.js';
import type { BugState, ReportedBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';

/**
 * A bug's project (api.md "Projects", issue 35): every bug belongs to one, and has a number
 * within it (`WEB-7`) beside the installation-wide `number` (#42). The report names the
 * project (the default one when the client sends none); `PUT /api/bugs/{id}/project` moves
 * the bug, which takes a new number in the new project while its old key keeps naming it.
 * Numbers within a project come from the write side (ProjectBugNumbers), once per bug and
 * project, never reused.
 */

export const bugProjectMessages = {
  cannotMove: 'Only admins, and the bug’s reporter when a member of both projects, can move a bug',
  archived: 'This project is archived: restore it before adding bugs to it',
  moved: 'Bug moved',
  assigneeNotMember: 'Assignees must be members of this private project',
} as const;

/** A team project's report with no assignee waits in the project's triage; its leads are told. */

const id = z.string().min(1).max(100);
export const bugProjectEventSchemas = {
  /** `projectNumber`: the bug's number within the project it moved to (its key there). */
  BugMovedToProject: {
    version: 1,
    data: z.object({ bugId: id, fromProjectId: id, projectId: id, projectNumber: z.number().int().positive() }),
  },
  /** Reported into a team project without an assignee: it waits in the project's triage (its leads are told). */
  BugInTriage: {
    version: 1,
    data: z.object({ bugId: id, projectId: id }),
  },
} as const;

/** What a decision needs to know of a project, as write-api read it from the project's stream. */
export type ProjectFacts = Pick<ProjectState, 'exists' | 'id' | 'private' | 'archived' | 'members' | 'access'>;

/** A bug of a report that named no project, and every bug from before projects, is in General. */
export const legacyProjectId = generalProject.id;

/**
 * The project a report (or a move) may put a bug into: one the actor sees (else 404, as if it
 * did not exist) and that is not archived (409).
 */
export function assertOpenTo(actor: Actor, project: ProjectFacts): void {
  if (!project.exists || !seesProject(actor, project)) throw new NotFoundError(projectMessages.notFound);
  if (project.archived) throw new ConflictError(bugProjectMessages.archived);
}

/**
 * `PUT /api/bugs/{id}/project { projectId }`. `to` and `from` are the projects as write-api
 * read them; `projectNumber` the number the bug takes in `to` (given before the decision, used
 * only when it moves).
 */
export type MoveBug = Command<
  'MoveBug',
  { bugId: string; from: ProjectFacts; to: ProjectFacts; projectNumber: number }
>;

export function decideMove(command: MoveBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  const { from, to } = command.data;
  const mayMove =
    actor.role === 'admin' ||
    (actor.id === bug.reporterId && actor.id in from.members && actor.id in to.members && actor.role !== 'auditor');
  if (!mayMove) refuse(actor, bug, bugProjectMessages.cannotMove);
  assertOpenTo(actor, to);
  if (to.id === bug.projectId) return [];
  return [
    {
      type: 'BugMovedToProject',
      data: {
        bugId: bug.id,
        fromProjectId: bug.projectId,
        projectId: to.id,
        projectNumber: command.data.projectNumber,
      },
    },
  ];
}

/** Where the bug is after `event`: a report places it, a move moves it, an old bug's number is its number in General. */
export function evolveBugProject(
  state: Pick<ReportedBug, 'projectId' | 'projectNumber'>,
  event: BugEvent,
): Pick<ReportedBug, 'projectId' | 'projectNumber'> {
  if (event.type === 'BugMovedToProject') {
    return { projectId: event.data.projectId, projectNumber: event.data.projectNumber };
  }
  if (event.type === 'BugNumbered' && state.projectNumber === null && state.projectId === legacyProjectId) {
    return { projectId: state.projectId, projectNumber: event.data.number };
  }
  return state;
}

/** `WEB-7`: the project's key and the bug's number in it; null while an old bug has no number yet. */
export const bugKey = (projectKey: string, projectNumber: number | null): string | null =>
  projectNumber === null ? null : `${projectKey}-${projectNumber}`;

/** `WEB-7` → { key: 'WEB', number: 7 }; null when it is not a key. */
export function parseBugKey(text: string): { key: string; number: number } | null {
  const match = /^([A-Z][A-Z0-9]{1,9})-([1-9]\d{0,8})$/.exec(text.trim().toUpperCase());
  return match ? { key: match[1]!, number: Number(match[2]) } : null;
}
